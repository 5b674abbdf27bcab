/*
 * db_settings.c - SET / RESET / SHOW / set_config (session settings),
 * SHOW TABLES and DESCRIBE.
 *
 * The settings are the ones engine/setting_catalog.h lists (PostgreSQL's
 * names, types and checks) and an application's dotted names. A session
 * value is looked up in three layers: what SET changed (source session),
 * what the startup packet gave (source client, what RESET goes back to),
 * the catalog's default. Values are kept as SHOW prints them, names in
 * lower case. An unknown name is 42704, a read-only one 55P02, a bad
 * value 22023, all without a position as PostgreSQL reports them.
 *
 * Settings are transactional as in PostgreSQL, although attu's data
 * changes are not (docs/sql-reference.md, "Transactions"): inside a
 * transaction block, SET and RESET last past COMMIT but are undone by
 * ROLLBACK (or an error, then ROLLBACK), and SET LOCAL lasts until the end
 * of the block either way. A multi-statement query string outside BEGIN is
 * one implicit block, as PostgreSQL runs it: a SET LOCAL in it lasts until
 * the string's end, and an error in it undoes its SETs. SET LOCAL (and SET
 * TRANSACTION) outside any block is PostgreSQL's WARNING 25P01 "... can
 * only be used in transaction blocks" and changes nothing. set_config's
 * is_local outside a block lasts for its statement, which is PostgreSQL's
 * transaction there (db_settings_end_statement).
 */
#include "db/db_internal.h"
#include "db/db_role.h"
#include "engine/datestyle.h"
#include "engine/interval.h"
#include "engine/setting_catalog.h"
#include "engine/strbuf.h"
#include "engine/timezone.h"
#include "planner/lexer.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value name has when the session set none: the startup packet's
 * (source client), else attu's default; NULL for an unknown name.
 * session_authorization is the connected user. */
static const char *reset_value(const attu_session *s, const char *name, const char **source) {
    for (int i = 0; i < s->nclient; i++)
        if (!strcmp(s->client[i].name, name)) { if (source) *source = "client"; return s->client[i].value; }
    const attu_setting_def *d = attu_setting_find(name);
    if (source) *source = "default";
    if (d && !strcmp(d->name, "session_authorization")) return s->user[0] ? s->user : "attu";
    /* whether the connected user is a superuser (found at login) */
    if (d && !strcmp(d->name, "is_superuser")) return s->login_not_super ? "off" : "on";
    return d ? d->value : NULL;
}

/* A setting's name as the session keeps it: lower case whatever the
 * quoting ("TimeZone" is timezone, as PostgreSQL finds it), SET TIME
 * ZONE's timezone. A name longer than buf is cut (the same way each
 * time; identifiers are at most 63 bytes anyway). */
static const char *canon(const char *name, char *buf, size_t cap) {
    if (!strcmp(name, "time zone")) return "timezone";
    size_t n = 0;
    for (; name[n] && n + 1 < cap; n++) buf[n] = (char)tolower((unsigned char)name[n]);
    buf[n] = 0;
    return buf;
}

/* transaction_isolation, _read_only, _deferrable: "default_" and the
 * name, whose value a transaction starts from */
static const char *txn_default(const char *name) {
    if (!strcmp(name, "transaction_isolation")) return "default_transaction_isolation";
    if (!strcmp(name, "transaction_read_only")) return "default_transaction_read_only";
    if (!strcmp(name, "transaction_deferrable")) return "default_transaction_deferrable";
    return NULL;
}

static const char *get_setting(const attu_session *s, const char *name) {
    for (int i = 0; i < s->nsettings; i++) if (!strcmp(s->settings[i].name, name)) return s->settings[i].value;
    /* a transaction's mode not set in it: the session's default for it */
    if (txn_default(name)) return get_setting(s, txn_default(name));
    return reset_value(s, name, NULL);
}

const char *db_setting_value(void *ctx, const char *name) {
    char buf[256];
    return get_setting(ctx, canon(name, buf, sizeof buf));
}

const char *db_setting_custom(void *ctx, int i) {
    const attu_session *s = ctx;
    for (int k = 0; k < s->nsettings; k++)
        if (attu_setting_is_custom(s->settings[k].name) && !attu_setting_find(s->settings[k].name) && i-- == 0)
            return s->settings[k].name;
    return NULL;
}

bool db_read_only(const attu_session *s) {
    const char *v = get_setting(s, "transaction_read_only");
    return v && !strcmp(v, "on");
}

char db_isolation(const attu_session *s) {
    const char *v = get_setting(s, "transaction_isolation");
    if (v && !strcmp(v, "serializable")) return 's';
    if (v && !strcmp(v, "repeatable read")) return 'r';
    return 'c';
}

/* The command PostgreSQL names when it refuses st in a read-only
 * transaction, or NULL for one it runs. */
static const char *select_lock_name(char strength) {
    switch (strength) {
    case 'n': return "SELECT FOR NO KEY UPDATE";
    case 's': return "SELECT FOR SHARE";
    case 'k': return "SELECT FOR KEY SHARE";
    default: return "SELECT FOR UPDATE";
    }
}

const char *db_writing_command(attu_session *s, const attu_ast_stmt *st) {
    switch (st->kind) {
    case ATTU_STMT_INSERT: return "INSERT";
    case ATTU_STMT_UPDATE: return db_updates_pg_settings(s, st) ? "SELECT" : "UPDATE";
    case ATTU_STMT_DELETE: return "DELETE";
    case ATTU_STMT_MERGE: return "MERGE";
    case ATTU_STMT_CREATE_TABLE: return "CREATE TABLE";
    case ATTU_STMT_CREATE_TABLE_AS: return "CREATE TABLE AS";
    case ATTU_STMT_DROP_TABLE: return "DROP TABLE";
    case ATTU_STMT_TRUNCATE: return "TRUNCATE TABLE";
    case ATTU_STMT_COPY: return st->u.copy.is_from ? "COPY FROM" : NULL;
    case ATTU_STMT_CREATE_VIEW: return st->u.create_view.materialized ? "CREATE MATERIALIZED VIEW" : "CREATE VIEW";
    case ATTU_STMT_DROP_VIEW: return st->u.drop_table.materialized ? "DROP MATERIALIZED VIEW" : "DROP VIEW";
    case ATTU_STMT_REFRESH_MATVIEW: return "REFRESH MATERIALIZED VIEW";
    case ATTU_STMT_CREATE_SEQUENCE: return "CREATE SEQUENCE";
    case ATTU_STMT_DROP_SEQUENCE: return "DROP SEQUENCE";
    case ATTU_STMT_ALTER_TABLE: return "ALTER TABLE";
    case ATTU_STMT_ALTER_SEQUENCE: return "ALTER SEQUENCE";
    case ATTU_STMT_CREATE_INDEX: return "CREATE INDEX";
    case ATTU_STMT_DROP_INDEX: return "DROP INDEX";
    case ATTU_STMT_ALTER_INDEX: return st->u.alter_index.action == 'i' || st->u.alter_index.action == 'T' ? "REINDEX" : "ALTER INDEX";
    case ATTU_STMT_EXPLAIN: return st->u.explain.analyze ? db_writing_command(s, st->u.explain.stmt) : NULL;
    /* (PostgreSQL's command name for a SELECT with row locks) */
    case ATTU_STMT_SELECT:
        return st->u.select.query && st->u.select.query->lock_strength ? select_lock_name(st->u.select.query->lock_strength) : NULL;
    case ATTU_STMT_DECLARE_CURSOR:
        return st->u.cursor.query && st->u.cursor.query->lock_strength ? select_lock_name(st->u.cursor.query->lock_strength) : NULL;
    default: return NULL;
    }
}

int db_refuse_if_read_only(attu_session *s, const attu_ast_stmt *st, attu_error *err) {
    const char *what = db_read_only(s) ? db_writing_command(s, st) : NULL;
    if (!what) return 0;
    return attu_error_set(err, "25006", 0, "cannot execute %s in a read-only transaction", what);
}

const char *attu_session_setting(attu_session *s, const char *name) {
    char lower[128];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof lower; n++) lower[n] = (char)tolower((unsigned char)name[n]);
    lower[n] = 0;
    return get_setting(s, lower);
}

const char *db_setting_state(void *ctx, const char *name, const char **source, const char **reset_val) {
    const attu_session *s = ctx;
    const char *r = reset_value(s, name, source);
    if (reset_val) *reset_val = r;
    for (int i = 0; i < s->nsettings; i++)
        if (!strcmp(s->settings[i].name, name)) { if (source) *source = "session"; return s->settings[i].value; }
    /* the transaction's own modes are set by BEGIN, as PostgreSQL's are */
    if (txn_default(name)) {
        if (source) *source = "override";
        return get_setting(s, name);
    }
    return r;
}

static int put_setting(attu_session *s, const char *name, const char *value, attu_error *err) {
    for (int i = 0; i < s->nsettings; i++)
        if (!strcmp(s->settings[i].name, name)) {
            char *v = strdup(value);
            if (!v) return attu_error_oom(err);
            free(s->settings[i].value);
            s->settings[i].value = v;
            return 0;
        }
    db_setting *n = realloc(s->settings, sizeof *n * (size_t)(s->nsettings + 1));
    if (!n) return attu_error_oom(err);
    s->settings = n;
    n[s->nsettings].name = strdup(name);
    n[s->nsettings].value = strdup(value);
    if (!n[s->nsettings].name || !n[s->nsettings].value) return attu_error_oom(err);
    s->nsettings++;
    return 0;
}

static void drop_setting(attu_session *s, int i) {
    free(s->settings[i].name); free(s->settings[i].value);
    s->settings[i] = s->settings[--s->nsettings];
}

/* The value the session holds for name (NULL: none, the default applies). */
static const char *own_value(const attu_session *s, const char *name) {
    for (int i = 0; i < s->nsettings; i++) if (!strcmp(s->settings[i].name, name)) return s->settings[i].value;
    return NULL;
}

/* Sets name to value, or back to its default when value is NULL. */
static int restore_setting(attu_session *s, const char *name, const char *value, attu_error *err) {
    if (value) return put_setting(s, name, value, err);
    for (int i = 0; i < s->nsettings; i++) if (!strcmp(s->settings[i].name, name)) { drop_setting(s, i); break; }
    return 0;
}

static bool in_block(const attu_session *s) { return s->txn != 'I' || s->implicit_block; }

static char *dup_or_null(const char *v, bool *oom) {
    if (!v) return NULL;
    char *d = strdup(v);
    if (!d) *oom = true;
    return d;
}

/* The undo record of name in the current block, made on its first change
 * (before = keep = the value it had). NULL when out of memory. */
static db_setting_undo *remember(attu_session *s, const char *name, attu_error *err) {
    for (int i = 0; i < s->nundo; i++) if (!strcmp(s->undo[i].name, name)) return &s->undo[i];
    db_setting_undo *n = realloc(s->undo, sizeof *n * (size_t)(s->nundo + 1));
    if (!n) { attu_error_oom(err); return NULL; }
    s->undo = n;
    bool oom = false;
    db_setting_undo u = { dup_or_null(name, &oom), dup_or_null(own_value(s, name), &oom), dup_or_null(own_value(s, name), &oom) };
    if (oom) { free(u.name); free(u.before); free(u.keep); attu_error_oom(err); return NULL; }
    s->undo[s->nundo] = u;
    return &s->undo[s->nundo++];
}

/* What a COMMIT keeps for a setting changed by SET (not SET LOCAL). */
static int keep_value(db_setting_undo *u, const char *value, attu_error *err) {
    bool oom = false;
    char *k = dup_or_null(value, &oom);
    if (oom) return attu_error_oom(err);
    free(u->keep);
    u->keep = k;
    return 0;
}

/* A whole number from the value SHOW prints ("5000", "5s" for a setting
 * in ms: attu_setting_raw gives the number), 0 when there is none. */
static int64_t setting_number(const attu_session *s, const char *name) {
    const attu_setting_def *d = attu_setting_find(name);
    const char *v = get_setting(s, name);
    char buf[32];
    if (!d || !v) return 0;
    return strtoll(attu_setting_raw(d, v, buf, sizeof buf), NULL, 10);
}

/* statement_timeout, attu.max_recursive_rows and TimeZone are also kept
 * in the forms the executor reads. */
static void sync_timeout(attu_session *s) {
    int64_t ms = setting_number(s, "statement_timeout");
    s->statement_timeout_ms = ms > 0 && ms <= INT32_MAX ? (int)ms : 0;
    ms = setting_number(s, "lock_timeout");   /* (db_lock.c's waits) */
    s->lock_timeout_ms = ms > 0 && ms <= INT32_MAX ? (int)ms : 0;
    int64_t rows = setting_number(s, "attu.max_recursive_rows");
    const attu_setting_def *d = attu_setting_find("attu.max_recursive_rows");
    s->max_recursive_rows = rows == strtoll(d->value, NULL, 10) ? 0 : rows ? rows : -1;   /* 0: the default */
    /* TimeZone (the session's, the startup packet's or UTC): kept by its
     * canonical name, which finds the zone again */
    const char *v = get_setting(s, "timezone");
    s->timezone = v ? attu_tz_for_setting(v) : NULL;
    if (!s->timezone) s->timezone = attu_tz_utc();
    attu_tz_set_session(s->timezone);
    /* DateStyle likewise, in the form the formatters read */
    s->datestyle = attu_datestyle_from_setting(get_setting(s, "datestyle"));
    s->datestyle.interval = attu_intervalstyle_from_setting(get_setting(s, "intervalstyle"));
    int64_t efd = setting_number(s, "extra_float_digits");
    s->datestyle.float_fixed = efd <= 0;
    s->datestyle.extra_float_digits = (int8_t)(efd <= 0 && efd >= -15 ? efd : 0);
    attu_datestyle_set_session(s->datestyle);
}

void db_settings_end_block(attu_session *s, bool commit) {
    attu_error ignored;
    attu_error_clear(&ignored);
    for (int i = 0; i < s->nundo; i++) {
        db_setting_undo *u = &s->undo[i];
        /* (out of memory here leaves the block's value in place) */
        restore_setting(s, u->name, commit ? u->keep : u->before, &ignored);
        free(u->name); free(u->before); free(u->keep);
    }
    free(s->undo);
    s->undo = NULL;
    s->nundo = 0;
    sync_timeout(s);
}

/* A savepoint's settings: each changed in the block so far, with its
 * value then and what a COMMIT would have kept then. */
struct db_settings_mark {
    int    n;
    char **name, **value, **keep;
};

void db_settings_mark_free(db_settings_mark *m) {
    if (!m) return;
    for (int i = 0; i < m->n; i++) { free(m->name[i]); free(m->value[i]); free(m->keep[i]); }
    free(m->name);
    free(m->value);
    free(m->keep);
    free(m);
}

db_settings_mark *db_settings_mark_take(attu_session *s, attu_error *err) {
    db_settings_mark *m = calloc(1, sizeof *m);
    bool oom = !m;
    if (m && s->nundo) {
        m->name = calloc((size_t)s->nundo, sizeof *m->name);
        m->value = calloc((size_t)s->nundo, sizeof *m->value);
        m->keep = calloc((size_t)s->nundo, sizeof *m->keep);
        oom = !m->name || !m->value || !m->keep;
        for (int i = 0; !oom && i < s->nundo; i++) {
            m->name[i] = dup_or_null(s->undo[i].name, &oom);
            m->value[i] = dup_or_null(own_value(s, s->undo[i].name), &oom);
            m->keep[i] = dup_or_null(s->undo[i].keep, &oom);
            m->n = i + 1;
        }
    }
    if (oom) { db_settings_mark_free(m); attu_error_oom(err); return NULL; }
    return m;
}

void db_settings_mark_rollback(attu_session *s, const db_settings_mark *m) {
    attu_error ignored;
    attu_error_clear(&ignored);
    for (int i = 0; i < s->nundo; i++) {
        db_setting_undo *u = &s->undo[i];
        int k = 0;
        while (k < m->n && strcmp(m->name[k], u->name)) k++;
        /* changed since the savepoint: back to its value then (a setting
         * first changed after it: as before the block, and so kept) */
        const char *value = k < m->n ? m->value[k] : u->before, *keep = k < m->n ? m->keep[k] : u->before;
        restore_setting(s, u->name, value, &ignored);
        keep_value(u, keep, &ignored);
    }
    sync_timeout(s);
}

void db_settings_end_statement(attu_session *s, bool ok) {
    if (s->txn == 'I' && !s->implicit_block && s->nundo) db_settings_end_block(s, ok);
}

void db_settings_free(attu_session *s) {
    db_settings_end_block(s, false);
    for (int i = 0; i < s->nsettings; i++) { free(s->settings[i].name); free(s->settings[i].value); }
    free(s->settings);
    s->settings = NULL;
    s->nsettings = 0;
    for (int i = 0; i < s->nclient; i++) { free(s->client[i].name); free(s->client[i].value); }
    free(s->client);
    s->client = NULL;
    s->nclient = 0;
}

/* SET TIME ZONE's value: a number of hours, a zone of the tz database or
 * a POSIX zone, as PostgreSQL's check_timezone; kept by the name SHOW
 * prints ('-3' is "<-03>+03", any case finds a file). */
static int check_timezone(char *value, size_t cap, attu_error *err) {
    const attu_tz *z;
    if (value[0] == ATTU_SET_TZ_INTERVAL) {
        /* INTERVAL '-08:00' [HOUR [TO MINUTE]]: a fixed offset east */
        char *colon = strchr(value, ':');
        int range = atoi(value + 1);
        attu_interval iv;
        if (!colon || (range ? attu_interval_parse_qualified(colon + 1, strlen(colon + 1), range, -1, &iv, err)
                             : attu_interval_parse(colon + 1, strlen(colon + 1), &iv, err)))
            return -1;
        if (iv.months || iv.days)
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "invalid interval value for time zone: %s not allowed",
                                  iv.months ? "month" : "day");
        /* past a week no zone takes it (attu_tz_fixed's NULL below);
         * the int32 cast would wrap -2147483648 hours into range */
        int64_t secs = iv.usec / 1000000;
        z = secs > -168 * 3600 && secs < 168 * 3600 ? attu_tz_fixed((int32_t)secs) : NULL;
    } else {
        z = attu_tz_for_setting(value);
    }
    /* (no position: PostgreSQL's check of the value has none) */
    if (!z) return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "invalid value for parameter \"TimeZone\": \"%s\"", value);
    snprintf(value, cap, "%s", attu_tz_name(z));
    return 0;
}

/* client_encoding: attu reads and writes UTF-8 only; PostgreSQL's
 * spellings of it are taken (shown as UTF8), another encoding PostgreSQL
 * knows is refused (0A000) rather than shown but not honoured, a name it
 * does not know is its 22023. */
static int check_client_encoding(char *value, size_t cap, attu_error *err) {
    static const char *const others[] = {
        "sqlascii", "eucjp", "euccn", "euckr", "euctw", "eucjis2004", "muleinternal", "latin1", "latin2", "latin3",
        "latin4", "latin5", "latin6", "latin7", "latin8", "latin9", "latin10", "win1256", "win1258", "win866",
        "win874", "koi8r", "win1251", "win1252", "iso88595", "iso88596", "iso88597", "iso88598", "win1250",
        "win1253", "win1254", "win1255", "win1257", "koi8u", "sjis", "big5", "gbk", "uhc", "gb18030", "johab",
        "shiftjis2004", "iso88591", "iso88592", "iso88593", "iso88594", "iso88599", "iso885910", "iso885913",
        "iso885914", "iso885915", "iso885916", "windows1252", "windows1251", "cp1252", "cp1251", "ascii",
    };
    char norm[64];
    size_t n = 0;
    for (const char *p = value; *p && n + 1 < sizeof norm; p++)
        if (isalnum((unsigned char)*p)) norm[n++] = (char)tolower((unsigned char)*p);
    norm[n] = 0;
    if (!strcmp(norm, "utf8") || !strcmp(norm, "unicode")) { snprintf(value, cap, "UTF8"); return 0; }
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        if (!strcmp(norm, others[i]))
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                  "client_encoding \"%s\" is not supported: attu sends and reads UTF8 only", value);
    return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "invalid value for parameter \"client_encoding\": \"%s\"", value);
}

/* DateStyle: a style (ISO, SQL, Postgres, German) and an order (YMD,
 * DMY / Euro, MDY / US / NonEuro) in any case, either of which may be
 * left out and keeps the current one (German alone brings DMY), or
 * DEFAULT; written back as "Style, ORDER" as PostgreSQL's check_datestyle
 * does. sync_timeout keeps it as engine/datestyle.h's form, which the
 * date formatters and the date input read. */
static int check_datestyle(const attu_session *s, char *value, size_t cap, attu_error *err) {
    const char *cur = get_setting(s, "datestyle");
    char style[16] = "ISO", order[8] = "MDY";
    if (cur && strlen(cur) < 32) sscanf(cur, "%15[^,], %7s", style, order);
    bool have_style = false, have_order = false;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", value);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
        const char *st = NULL, *od = NULL;
        if (!strcasecmp(tok, "iso")) st = "ISO";
        else if (!strcasecmp(tok, "sql")) st = "SQL";
        else if (!strncasecmp(tok, "postgres", 8)) st = "Postgres";
        else if (!strcasecmp(tok, "german")) st = "German";
        else if (!strcasecmp(tok, "ymd")) od = "YMD";
        else if (!strcasecmp(tok, "dmy") || !strncasecmp(tok, "euro", 4)) od = "DMY";
        else if (!strcasecmp(tok, "mdy") || !strcasecmp(tok, "us") || !strncasecmp(tok, "noneuro", 7)) od = "MDY";
        else if (!strcasecmp(tok, "default")) {
            if (!have_style) snprintf(style, sizeof style, "ISO");
            if (!have_order) snprintf(order, sizeof order, "MDY");
            have_style = have_order = true;
            continue;
        } else {
            attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "invalid value for parameter \"DateStyle\": \"%s\"", value);
            attu_error_set_detail(err, "Unrecognized key word: \"%s\".", tok);
            return -1;
        }
        if ((st && have_style && strcmp(st, style)) || (od && have_order && strcmp(od, order))) {
            attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "invalid value for parameter \"DateStyle\": \"%s\"", value);
            attu_error_set_detail(err, "Conflicting \"datestyle\" specifications.");
            return -1;
        }
        if (st) {
            snprintf(style, sizeof style, "%s", st);
            have_style = true;
            if (!strcmp(st, "German") && !have_order) snprintf(order, sizeof order, "DMY");
        }
        if (od) { snprintf(order, sizeof order, "%s", od); have_order = true; }
    }
    snprintf(value, cap, "%s, %s", style, order);
    return 0;
}

/* The checks and the canonical form of value for name (d: its entry, or
 * NULL for an application's dotted name) into v (cap bytes). */
static int check_value(attu_session *s, const attu_setting_def *d, const char *name, const char *value, char *v, size_t cap,
                       attu_error *err) {
    snprintf(v, cap, "%s", value);
    if (d && attu_setting_check(d, value, v, cap, err)) return -1;
    if (!strcmp(name, "timezone") && check_timezone(v, cap, err)) return -1;
    if (!strcmp(name, "client_encoding") && check_client_encoding(v, cap, err)) return -1;
    if (!strcmp(name, "datestyle") && check_datestyle(s, v, cap, err)) return -1;
    /* SET ROLE (or none) and SET SESSION AUTHORIZATION (db_role.c) */
    if (!strcmp(name, "role") && strcmp(v, "none") != 0 && db_role_check_set_role(s, v, err)) return -1;
    if (!strcmp(name, "session_authorization") && db_role_check_session_authorization(s, v, err)) return -1;
    return 0;
}

/* name = value (NULL: its reset value), remembered for the block's end
 * when in one: a ROLLBACK undoes it, and so does the block's end for a
 * local one. */
static int put_undoable(attu_session *s, const char *name, const char *value, bool local, bool statement_block,
                        attu_error *err) {
    if (in_block(s) || statement_block) {
        db_setting_undo *u = remember(s, name, err);
        if (!u || (!local && keep_value(u, value, err))) return -1;
    }
    return restore_setting(s, name, value, err);
}

int db_setting_apply(attu_session *s, const char *name, const char *value, bool local, bool statement_block,
                     char **shown, attu_error *err) {
    const attu_setting_def *d = attu_setting_find(name);
    if (!d && !attu_setting_is_custom(name))
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "unrecognized configuration parameter \"%s\"", name);
    if (d && !strcmp(d->context, "internal"))
        return attu_error_set(err, "55P02", 0, "parameter \"%s\" cannot be changed", d->name);
    /* (room for a canonical form longer than what was written: '-3' is
     * the zone "<-03>+03", '1' is "on") */
    size_t cap = (value ? strlen(value) : 0) + 128;
    char *v = malloc(cap);
    if (!v) return attu_error_oom(err);
    v[0] = 0;
    int rc = -1;
    if (value && check_value(s, d, name, value, v, cap, err)) goto out;
    /* an application's name stays known once set: RESET leaves it ""
     * (PostgreSQL's placeholder keeps an empty reset value) */
    if (!d && !value) value = v;
    if (shown) {
        const char *now = value ? v : reset_value(s, name, NULL);
        if (!(*shown = strdup(now ? now : ""))) { attu_error_oom(err); goto out; }
    }
    /* the transaction's own modes last until its end; outside a block
     * they change nothing (the next transaction starts afresh). Once a
     * query ran in it, its isolation level and read-only mode stay
     * (PostgreSQL's 25001). */
    if (d && txn_default(name) && s->snapshot_taken && value) {
        const char *cur = get_setting(s, name);
        if (!strcmp(name, "transaction_isolation") && strcmp(v, cur) != 0) {
            attu_error_set(err, "25001", 0, "SET TRANSACTION ISOLATION LEVEL must be called before any query");
            goto out;
        }
        if (!strcmp(name, "transaction_read_only") && !strcmp(v, "off") && !strcmp(cur, "on")) {
            attu_error_set(err, "25001", 0, "transaction read-write mode must be set before any query");
            goto out;
        }
    }
    /* (a savepoint's subtransaction runs at its block's level) */
    if (d && value && !strcmp(name, "transaction_isolation") && s->txn != 'I' && db_txn_savepoints(s) > 0 &&
        strcmp(v, get_setting(s, name)) != 0) {
        attu_error_set(err, "25001", 0, "SET TRANSACTION ISOLATION LEVEL must not be called in a subtransaction");
        goto out;
    }
    if (d && txn_default(name)) {
        if (s->txn == 'I') { rc = 0; goto out; }
        local = true;
    }
    if (local && !in_block(s) && !statement_block) { rc = 0; goto out; }
    if (put_undoable(s, name, value ? v : NULL, local, statement_block, err)) goto out;
    /* is_superuser follows the current role, set with it as PostgreSQL's
     * assign hooks set it (so ROLLBACK and SET LOCAL undo both): the
     * catalog is read here, inside a statement */
    if (d && (!strcmp(name, "role") || !strcmp(name, "session_authorization")) &&
        put_undoable(s, "is_superuser", db_role_is_superuser(s) ? "on" : "off", local, statement_block, err))
        goto out;
    sync_timeout(s);
    rc = 0;
out:
    free(v);
    if (rc && shown) { free(*shown); *shown = NULL; }
    return rc;
}

int db_settings_txn_modes(attu_session *s, const char *const *modes, int n, bool session_defaults, attu_error *err) {
    for (int i = 0; i < n; i++) {
        const char *m = modes[i], *what, *value = "on";
        if (!strcmp(m, "read only") || !strcmp(m, "read write")) {
            what = "read_only";
            if (!strcmp(m, "read write")) value = "off";
        } else if (!strcmp(m, "deferrable") || !strcmp(m, "not deferrable")) {
            what = "deferrable";
            if (!strcmp(m, "not deferrable")) value = "off";
        } else {
            what = "isolation";
            value = m;
        }
        char name[64];
        snprintf(name, sizeof name, "%stransaction_%s", session_defaults ? "default_" : "", what);
        if (db_setting_apply(s, name, value, !session_defaults, false, NULL, err)) return -1;
    }
    return 0;
}

int db_set_config(void *ctx, const char *name, const char *value, bool is_local, bool apply, char **out, attu_error *err) {
    attu_session *s = ctx;
    *out = NULL;
    if (!apply) {
        /* only described: the value is checked as it would be kept */
        const attu_setting_def *d = attu_setting_find(name);
        if (!d && !attu_setting_is_custom(name))
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "unrecognized configuration parameter \"%s\"", name);
        if (!(*out = strdup(value ? value : ""))) return attu_error_oom(err);
        return 0;
    }
    /* outside a block, the statement is the transaction a local value
     * lasts for (db_settings_end_statement) */
    return db_setting_apply(s, name, value, is_local, true, out, err);
}

int attu_session_set_client_setting(attu_session *s, const char *name, const char *value) {
    char lower[128];
    size_t n = 0;
    for (; name[n] && n + 1 < sizeof lower; n++) lower[n] = (char)tolower((unsigned char)name[n]);
    lower[n] = 0;
    const attu_setting_def *d = attu_setting_find(lower);
    attu_error err;
    attu_error_clear(&err);
    char v[512];
    if (!d || strcmp(d->context, "user") != 0 || strlen(value) + 128 > sizeof v ||
        check_value(s, d, lower, value, v, sizeof v, &err))
        return -1;
    for (int i = 0; i < s->nclient; i++)
        if (!strcmp(s->client[i].name, lower)) {
            char *nv = strdup(v);
            if (!nv) return -1;
            free(s->client[i].value);
            s->client[i].value = nv;
            sync_timeout(s);
            return 0;
        }
    db_setting *c = realloc(s->client, sizeof *c * (size_t)(s->nclient + 1));
    if (!c) return -1;
    s->client = c;
    c[s->nclient].name = strdup(lower);
    c[s->nclient].value = strdup(v);
    if (!c[s->nclient].name || !c[s->nclient].value) {
        free(c[s->nclient].name); free(c[s->nclient].value);
        return -1;
    }
    s->nclient++;
    sync_timeout(s);
    return 0;
}

static int one_row(const attu_exec_callbacks *cb, const char *colname, const char *value, attu_error *err) {
    attu_result *r = db_result_new(1);
    const char *v[1] = { value };
    attu_column *c = r ? db_text_column(v, 1, err) : NULL;
    if (!c) { attu_result_free(r); return err->set ? -1 : attu_error_oom(err); }
    r->cols[0] = c; r->nrows = 1; r->returns_rows = true;
    /* (a column name is an identifier: at most 63 bytes, as PostgreSQL's) */
    snprintf(r->desc[0].name, sizeof r->desc[0].name, "%.*s", (int)sizeof r->desc[0].name - 1, colname);
    r->desc[0].type = attu_type_make(ATTU_TYPE_TEXT);
    snprintf(r->tag, sizeof r->tag, "SHOW");
    return db_deliver(cb, r) ? -2 : 0;
}

/* SHOW ALL: name, setting and description of every setting PostgreSQL
 * lists there (not the hidden ones, not an application's dotted names,
 * as PostgreSQL leaves its placeholders out), in pg_settings' order. */
static int show_all(attu_session *s, const attu_exec_callbacks *cb, attu_error *err) {
    const char **names = calloc(attu_nsettings + 1, sizeof *names);
    const char **vals = calloc(attu_nsettings + 1, sizeof *vals);
    const char **descs = calloc(attu_nsettings + 1, sizeof *descs);
    if (!names || !vals || !descs) { free(names); free(vals); free(descs); return attu_error_oom(err); }
    size_t n = 0;
    for (size_t i = 0; i < attu_nsettings; i++) {
        const attu_setting_def *d = &attu_settings[i];
        if (d->hidden) continue;
        char lower[64];
        size_t k = 0;
        for (; d->name[k] && k + 1 < sizeof lower; k++) lower[k] = (char)tolower((unsigned char)d->name[k]);
        lower[k] = 0;
        names[n] = d->name; vals[n] = get_setting(s, lower); descs[n++] = d->short_desc;
    }
    attu_result *r = db_result_new(3);
    attu_column *c0 = r ? db_text_column(names, n, err) : NULL, *c1 = c0 ? db_text_column(vals, n, err) : NULL;
    attu_column *c2 = c1 ? db_text_column(descs, n, err) : NULL;
    free(names); free(vals); free(descs);
    if (!c2) { attu_column_free(c0); attu_column_free(c1); attu_result_free(r); return err->set ? -1 : attu_error_oom(err); }
    r->cols[0] = c0; r->cols[1] = c1; r->cols[2] = c2; r->nrows = n; r->returns_rows = true;
    snprintf(r->desc[0].name, sizeof r->desc[0].name, "name");
    snprintf(r->desc[1].name, sizeof r->desc[1].name, "setting");
    snprintf(r->desc[2].name, sizeof r->desc[2].name, "description");
    r->desc[0].type = r->desc[1].type = r->desc[2].type = attu_type_make(ATTU_TYPE_TEXT);
    snprintf(r->tag, sizeof r->tag, "SHOW");
    return db_deliver(cb, r) ? -2 : 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

int db_exec_setting(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    switch (st->kind) {
    case ATTU_STMT_SET: {
        char nbuf[256];
        const char *name = canon(st->u.set.name, nbuf, sizeof nbuf);
        /* SET TRANSACTION ... is SET LOCAL of the transaction's modes */
        bool txn_modes = !strcmp(name, "transaction");
        bool local = st->u.set.local || txn_modes;
        /* outside a block: PostgreSQL's warning, then the value is still
         * checked, and nothing changes */
        if (local && !in_block(s))
            db_warning(cb, "25P01", txn_modes ? "SET TRANSACTION can only be used in transaction blocks"
                                              : "SET LOCAL can only be used in transaction blocks");
        if (txn_modes || !strcmp(name, "session characteristics")) {
            if ((!txn_modes || in_block(s)) &&
                db_settings_txn_modes(s, (const char *const *)st->u.set.values, st->u.set.nvalues, !txn_modes, err))
                return -1;
            return db_deliver_tag(cb, "SET", err) ? -2 : 0;
        }
        /* a list (SET search_path = a, b) is kept as "a, b"; search_path's
         * names quoted where they need it ("$user", public), as PostgreSQL
         * flattens a GUC_LIST_QUOTE setting. Only PostgreSQL's
         * GUC_LIST_INPUT settings take a list (22023 for the others). */
        if (st->u.set.nvalues > 1 && strcmp(name, "search_path") != 0 && strcmp(name, "datestyle") != 0 &&
            strcmp(name, "temp_tablespaces") != 0)
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "SET %s takes only one argument", name);
        attu_strbuf value = {0};
        const bool quote = !strcmp(name, "search_path");
        for (int i = 0; i < st->u.set.nvalues; i++) {
            if (i) attu_strbuf_puts(&value, ", ");
            if (quote && attu_ident_needs_quotes(st->u.set.values[i]))
                attu_strbuf_quote_ident(&value, st->u.set.values[i]);
            else attu_strbuf_puts(&value, st->u.set.values[i]);
        }
        if (value.oom) { free(value.p); return attu_error_oom(err); }
        /* SET ... TO DEFAULT is RESET; (its errors have no position, as
         * PostgreSQL's have none) */
        int rc = db_setting_apply(s, name, st->u.set.to_default ? NULL : value.p ? value.p : "", local, false, NULL, err);
        free(value.p);
        if (rc) return -1;
        return db_deliver_tag(cb, "SET", err) ? -2 : 0;
    }
    case ATTU_STMT_RESET: {
        if (st->u.reset.name) {
            char nbuf[256];
            const char *name = canon(st->u.reset.name, nbuf, sizeof nbuf);
            if (db_setting_apply(s, name, NULL, false, false, NULL, err)) return -1;
            return db_deliver_tag(cb, "RESET", err) ? -2 : 0;
        }
        /* RESET is a SET to the default (an application's name: ""): a
         * COMMIT keeps it. role and session_authorization stay, as
         * PostgreSQL's GUC_NO_RESET_ALL ones (and is_superuser with them);
         * DISCARD ALL resets those first. */
        for (int i = 0; i < s->nsettings; i++) {
            const char *n = s->settings[i].name;
            if (!strcmp(n, "role") || !strcmp(n, "session_authorization") || !strcmp(n, "is_superuser")) continue;
            bool custom = !attu_setting_find(s->settings[i].name);
            if (in_block(s)) {
                db_setting_undo *u = remember(s, s->settings[i].name, err);
                if (!u || keep_value(u, custom ? "" : NULL, err)) return -1;
            }
            if (!custom) drop_setting(s, i--);
            else if (put_setting(s, s->settings[i].name, "", err)) return -1;
        }
        sync_timeout(s);
        return db_deliver_tag(cb, "RESET", err) ? -2 : 0;
    }
    case ATTU_STMT_SHOW: {
        char nbuf[256];
        const char *name = canon(st->u.show.name, nbuf, sizeof nbuf);
        if (!strcmp(name, "all")) return show_all(s, cb, err);
        const char *v = get_setting(s, name);
        if (!v) return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "unrecognized configuration parameter \"%s\"", name);
        const attu_setting_def *d = attu_setting_find(name);
        return one_row(cb, d ? d->name : name, v, err);
    }
    case ATTU_STMT_SHOW_TABLES: {
        pthread_rwlock_rdlock(&s->db->lock);
        /* tables and views, by name */
        size_t nt = attu_catalog_count(db_cat(s)), nv = attu_views_count(attu_catalog_views(db_cat(s)));
        size_t n = nt + nv;
        const char **names = calloc(n + 1, sizeof *names);
        if (!names) { pthread_rwlock_unlock(&s->db->lock); return attu_error_oom(err); }
        for (size_t i = 0; i < nt; i++) names[i] = attu_catalog_at(db_cat(s), i)->name;
        /* (a materialized view is both: its table's name stands for it) */
        n = nt;
        for (size_t i = 0; i < nv; i++) {
            const attu_view *v = attu_views_at(attu_catalog_views(db_cat(s)), i);
            if (v->kind != 'm') names[n++] = v->name;
        }
        qsort(names, n, sizeof *names, by_name);
        attu_result *r = db_result_new(1);
        attu_column *c = r ? db_text_column(names, n, err) : NULL;
        free(names);
        pthread_rwlock_unlock(&s->db->lock);
        if (!c) { attu_result_free(r); return err->set ? -1 : attu_error_oom(err); }
        r->cols[0] = c; r->nrows = n; r->returns_rows = true;
        snprintf(r->desc[0].name, sizeof r->desc[0].name, "name");
        r->desc[0].type = attu_type_make(ATTU_TYPE_TEXT);
        snprintf(r->tag, sizeof r->tag, "SELECT %zu", n);
        return db_deliver(cb, r) ? -2 : 0;
    }
    case ATTU_STMT_DESCRIBE: {
        pthread_rwlock_rdlock(&s->db->lock);
        attu_table *t = attu_catalog_lookup(db_cat(s), st->u.describe.table);
        /* a view: the columns CREATE VIEW fixed, all nullable */
        const attu_view *v = t ? NULL : attu_views_find(attu_catalog_views(db_cat(s)), st->u.describe.table);
        if (!t && !v) {
            pthread_rwlock_unlock(&s->db->lock);
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, st->u.describe.table_position, "relation \"%s\" does not exist", st->u.describe.table);
        }
        int n = t ? t->ncols : v->ncols;
        const char **names = calloc((size_t)n + 1, sizeof *names), **types = calloc((size_t)n + 1, sizeof *types);
        const char **nulls = calloc((size_t)n + 1, sizeof *nulls);
        char (*tb)[64] = calloc((size_t)n + 1, 64);
        if (!names || !types || !nulls || !tb) { free(names); free(types); free(nulls); free(tb); pthread_rwlock_unlock(&s->db->lock); return attu_error_oom(err); }
        for (int i = 0; i < n; i++) {
            names[i] = t ? t->defs[i].name : v->col_names[i];
            attu_type ty = t ? t->defs[i].type : v->col_types[i];
            types[i] = attu_type_is_qualified_interval(ty) ? attu_type_interval_name(ty, tb[i], 64)
                                                           : attu_type_name(ty, tb[i], 64);
            if (attu_type_array_has_mod(ty) && attu_type_array_elem_mod(ty).id == ATTU_TYPE_DECIMAL) {
                /* numeric(5,2)[] shows its modifier as numeric(5,2) does;
                 * char(n)[] and varchar(n)[] are character[] and character
                 * varying[], as their elements show without a length */
                char eb[48];
                snprintf(tb[i], 64, "%s[]", attu_type_name(attu_type_array_elem_mod(ty), eb, sizeof eb));
                types[i] = tb[i];
            }
            nulls[i] = t && t->defs[i].not_null ? "NO" : "YES";
        }
        attu_result *r = db_result_new(3);
        attu_column *c0 = r ? db_text_column(names, (size_t)n, err) : NULL;
        attu_column *c1 = c0 ? db_text_column(types, (size_t)n, err) : NULL;
        attu_column *c2 = c1 ? db_text_column(nulls, (size_t)n, err) : NULL;
        free(names); free(types); free(nulls); free(tb);
        pthread_rwlock_unlock(&s->db->lock);
        if (!c2) { attu_column_free(c0); attu_column_free(c1); attu_result_free(r); return err->set ? -1 : attu_error_oom(err); }
        r->cols[0] = c0; r->cols[1] = c1; r->cols[2] = c2; r->nrows = (size_t)n; r->returns_rows = true;
        snprintf(r->desc[0].name, 64, "column_name");
        snprintf(r->desc[1].name, 64, "data_type");
        snprintf(r->desc[2].name, 64, "is_nullable");
        for (int i = 0; i < 3; i++) r->desc[i].type = attu_type_make(ATTU_TYPE_TEXT);
        snprintf(r->tag, sizeof r->tag, "SELECT %d", n);
        return db_deliver(cb, r) ? -2 : 0;
    }
    default:
        return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, st->position, "not a settings statement");
    }
}
