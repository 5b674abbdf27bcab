/*
 * db_settings.c - SET / RESET / SHOW (session settings, accepted as clients
 * send them), SHOW TABLES and DESCRIBE.
 *
 * Settings are transactional as in PostgreSQL, although attu's data
 * changes are not (docs/sql-reference.md, "Transactions"): inside a
 * transaction block, SET and RESET last past COMMIT but are undone by
 * ROLLBACK (or an error, then ROLLBACK), and SET LOCAL lasts until the end
 * of the block either way. A multi-statement query string outside BEGIN is
 * one implicit block, as PostgreSQL runs it: a SET LOCAL in it lasts until
 * the string's end, and an error in it undoes its SETs. SET LOCAL (and SET
 * TRANSACTION) outside any block is PostgreSQL's WARNING 25P01 "... can
 * only be used in transaction blocks" and changes nothing.
 */
#include "db/db_internal.h"
#include "engine/interval.h"
#include "engine/timezone.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct default_setting { const char *name, *value; } default_setting;
static const default_setting defaults[] = {
    { "application_name", "" }, { "client_encoding", "UTF8" }, { "datestyle", "ISO, MDY" },
    { "extra_float_digits", "1" }, { "integer_datetimes", "on" }, { "intervalstyle", "postgres" },
    { "is_superuser", "on" }, { "search_path", "\"$user\", public" }, { "server_encoding", "UTF8" },
    { "server_version", "15.0" }, { "server_version_num", "150000" }, { "standard_conforming_strings", "on" },
    { "statement_timeout", "0" }, { "timezone", "UTC" }, { "transaction_isolation", "read committed" },
    { "default_transaction_isolation", "read committed" }, { "client_min_messages", "notice" },
    { "lc_collate", "C" }, { "lc_ctype", "C" }, { "max_identifier_length", "63" },
    /* attu's own: the rows a WITH RECURSIVE may produce (0: no limit) */
    { "attu.max_recursive_rows", "10000000" },
};
#define NDEFAULTS (sizeof defaults / sizeof *defaults)

static const char *canon(const char *name) {
    if (!strcmp(name, "time zone")) return "timezone";
    return name;
}

static const char *get_setting(attu_session *s, const char *name) {
    for (int i = 0; i < s->nsettings; i++) if (!strcmp(s->settings[i].name, name)) return s->settings[i].value;
    for (size_t i = 0; i < NDEFAULTS; i++) if (!strcmp(defaults[i].name, name)) return defaults[i].value;
    return NULL;
}

const char *db_setting_value(void *ctx, const char *name) { return get_setting(ctx, canon(name)); }

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

static int parse_timeout(const char *v, int *ms);

/* attu.max_recursive_rows: a count of rows, 0 for none */
static int parse_row_limit(const char *v, int64_t *n) {
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    while (*end == ' ') end++;
    if (end == v || *end || errno || x < 0) return -1;
    *n = x;
    return 0;
}

/* statement_timeout and attu.max_recursive_rows are also kept as numbers
 * for the executor. */
static void sync_timeout(attu_session *s) {
    const char *v = own_value(s, "statement_timeout");
    int ms = 0;
    if (!v || parse_timeout(v, &ms)) ms = 0;
    s->statement_timeout_ms = ms;
    v = own_value(s, "attu.max_recursive_rows");
    int64_t rows = 0;
    if (!v || parse_row_limit(v, &rows)) s->max_recursive_rows = 0;   /* the default */
    else s->max_recursive_rows = rows ? rows : -1;
    /* TimeZone: kept by its canonical name, which finds the zone again */
    v = own_value(s, "timezone");
    s->timezone = v ? attu_tz_for_setting(v) : NULL;
    if (!s->timezone) s->timezone = attu_tz_utc();
    attu_tz_set_session(s->timezone);
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

void db_settings_free(attu_session *s) {
    db_settings_end_block(s, false);
    for (int i = 0; i < s->nsettings; i++) { free(s->settings[i].name); free(s->settings[i].value); }
    free(s->settings);
    s->settings = NULL;
    s->nsettings = 0;
}

/* statement_timeout: "0", "1500", "5s", "200ms", "1min" -> ms */
static int parse_timeout(const char *v, int *ms) {
    char *end;
    double x = strtod(v, &end);
    while (*end == ' ') end++;
    double mul = 1;
    if (!*end || !strcmp(end, "ms")) mul = 1;
    else if (!strcmp(end, "s")) mul = 1000;
    else if (!strcmp(end, "min")) mul = 60000;
    else if (!strcmp(end, "h")) mul = 3600000;
    else return -1;
    if (end == v || x < 0 || x * mul > 2147483647.0) return -1;
    *ms = (int)(x * mul);
    return 0;
}

static int one_row(const attu_exec_callbacks *cb, const char *colname, const char *value, attu_error *err) {
    attu_result *r = db_result_new(1);
    const char *v[1] = { value };
    attu_column *c = r ? db_text_column(v, 1, err) : NULL;
    if (!c) { attu_result_free(r); return err->set ? -1 : attu_error_oom(err); }
    r->cols[0] = c; r->nrows = 1; r->returns_rows = true;
    snprintf(r->desc[0].name, sizeof r->desc[0].name, "%s", colname);
    r->desc[0].type = attu_type_make(ATTU_TYPE_TEXT);
    snprintf(r->tag, sizeof r->tag, "SHOW");
    return db_deliver(cb, r) ? -2 : 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

int db_exec_setting(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    switch (st->kind) {
    case ATTU_STMT_SET: {
        const char *name = canon(st->u.set.name);
        /* SET TRANSACTION ... is SET LOCAL of the transaction's modes */
        bool txn_modes = !strcmp(name, "transaction");
        bool local = st->u.set.local || txn_modes;
        /* outside a block: PostgreSQL's warning, then the value is still
         * checked, and nothing changes */
        if (local && !in_block(s))
            db_warning(cb, "25P01", txn_modes ? "SET TRANSACTION can only be used in transaction blocks"
                                              : "SET LOCAL can only be used in transaction blocks");
        char value[512] = "";
        size_t used = 0;
        if (st->u.set.to_default) {
            const char *d = NULL;
            for (size_t i = 0; i < NDEFAULTS; i++) if (!strcmp(defaults[i].name, name)) d = defaults[i].value;
            snprintf(value, sizeof value, "%s", d ? d : "");
        } else
            for (int i = 0; i < st->u.set.nvalues && used < sizeof value; i++)
                used += (size_t)snprintf(value + used, sizeof value - used, "%s%s", i ? ", " : "", st->u.set.values[i]);
        if (!strcmp(name, "statement_timeout")) {
            int ms;
            if (parse_timeout(value, &ms))
                return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, st->position,
                                      "invalid value for parameter \"statement_timeout\": \"%s\"", value);
            if (ms == 0) snprintf(value, sizeof value, "0");
            else if (ms % 1000 == 0) snprintf(value, sizeof value, "%ds", ms / 1000);
            else snprintf(value, sizeof value, "%dms", ms);
        }
        if (!strcmp(name, "timezone")) {
            /* a number of hours, a zone of the tz database or a POSIX
             * zone, as PostgreSQL's check_timezone; kept by the name SHOW
             * prints ('-3' is "<-03>+03", any case finds a file) */
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
                    return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                                          "invalid interval value for time zone: %s not allowed",
                                          iv.months ? "month" : "day");
                /* past a week no zone takes it (attu_tz_fixed's NULL below);
                 * the int32 cast would wrap -2147483648 hours into range */
                int64_t secs = iv.usec / 1000000;
                z = secs > -168 * 3600 && secs < 168 * 3600 ? attu_tz_fixed((int32_t)secs) : NULL;
            } else {
                z = attu_tz_for_setting(value);
            }
            if (!z) {
                /* (no position: PostgreSQL's check of the value has none) */
                attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                               "invalid value for parameter \"TimeZone\": \"%s\"", value);
                return -1;
            }
            snprintf(value, sizeof value, "%s", attu_tz_name(z));
        }
        if (!strcmp(name, "attu.max_recursive_rows")) {
            int64_t rows;
            if (parse_row_limit(value, &rows))
                return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, st->position,
                                      "invalid value for parameter \"attu.max_recursive_rows\": \"%s\"", value);
            snprintf(value, sizeof value, "%lld", (long long)rows);
        }
        if (local && !in_block(s)) return db_deliver_tag(cb, "SET", err) ? -2 : 0;
        if (in_block(s)) {
            db_setting_undo *u = remember(s, name, err);
            if (!u || (!local && keep_value(u, value, err))) return -1;
        }
        if (put_setting(s, name, value, err)) return -1;
        sync_timeout(s);
        return db_deliver_tag(cb, "SET", err) ? -2 : 0;
    }
    case ATTU_STMT_RESET: {
        const char *name = st->u.reset.name ? canon(st->u.reset.name) : NULL;
        if (in_block(s)) {   /* RESET is a SET to the default: a COMMIT keeps it */
            if (name) {
                db_setting_undo *u = remember(s, name, err);
                if (!u || keep_value(u, NULL, err)) return -1;
            }
            for (int i = 0; !name && i < s->nsettings; i++) {
                db_setting_undo *u = remember(s, s->settings[i].name, err);
                if (!u || keep_value(u, NULL, err)) return -1;
            }
        }
        for (int i = 0; i < s->nsettings; i++)
            if (!name || !strcmp(s->settings[i].name, name)) drop_setting(s, i--);
        sync_timeout(s);
        return db_deliver_tag(cb, "RESET", err) ? -2 : 0;
    }
    case ATTU_STMT_SHOW: {
        const char *name = canon(st->u.show.name);
        if (!strcmp(name, "all")) {
            const char **names = calloc(NDEFAULTS + (size_t)s->nsettings + 1, sizeof *names);
            const char **vals = calloc(NDEFAULTS + (size_t)s->nsettings + 1, sizeof *vals);
            if (!names || !vals) { free(names); free(vals); return attu_error_oom(err); }
            size_t n = 0;
            for (size_t i = 0; i < NDEFAULTS; i++) { names[n] = defaults[i].name; vals[n++] = get_setting(s, defaults[i].name); }
            for (int i = 0; i < s->nsettings; i++) {
                bool known = false;
                for (size_t k = 0; k < NDEFAULTS; k++) if (!strcmp(defaults[k].name, s->settings[i].name)) known = true;
                if (!known) { names[n] = s->settings[i].name; vals[n++] = s->settings[i].value; }
            }
            attu_result *r = db_result_new(2);
            attu_column *c0 = r ? db_text_column(names, n, err) : NULL, *c1 = c0 ? db_text_column(vals, n, err) : NULL;
            free(names); free(vals);
            if (!c1) { attu_column_free(c0); attu_result_free(r); return err->set ? -1 : attu_error_oom(err); }
            r->cols[0] = c0; r->cols[1] = c1; r->nrows = n; r->returns_rows = true;
            snprintf(r->desc[0].name, sizeof r->desc[0].name, "name");
            snprintf(r->desc[1].name, sizeof r->desc[1].name, "setting");
            r->desc[0].type = r->desc[1].type = attu_type_make(ATTU_TYPE_TEXT);
            snprintf(r->tag, sizeof r->tag, "SHOW");
            return db_deliver(cb, r) ? -2 : 0;
        }
        const char *v = get_setting(s, name);
        if (!v) return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, st->position, "unrecognized configuration parameter \"%s\"", name);
        return one_row(cb, !strcmp(name, "timezone") ? "TimeZone" : !strcmp(name, "datestyle") ? "DateStyle" : name, v, err);
    }
    case ATTU_STMT_SHOW_TABLES: {
        pthread_rwlock_rdlock(&s->db->lock);
        /* tables and views, by name */
        size_t nt = attu_catalog_count(s->db->cat), nv = attu_views_count(attu_catalog_views(s->db->cat));
        size_t n = nt + nv;
        const char **names = calloc(n + 1, sizeof *names);
        if (!names) { pthread_rwlock_unlock(&s->db->lock); return attu_error_oom(err); }
        for (size_t i = 0; i < nt; i++) names[i] = attu_catalog_at(s->db->cat, i)->name;
        /* (a materialized view is both: its table's name stands for it) */
        n = nt;
        for (size_t i = 0; i < nv; i++) {
            const attu_view *v = attu_views_at(attu_catalog_views(s->db->cat), i);
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
        attu_table *t = attu_catalog_lookup(s->db->cat, st->u.describe.table);
        /* a view: the columns CREATE VIEW fixed, all nullable */
        const attu_view *v = t ? NULL : attu_views_find(attu_catalog_views(s->db->cat), st->u.describe.table);
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
