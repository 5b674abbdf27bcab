/*
 * fake_db.c - a stand-in for db/database.h, for protocol tests.
 *
 * It understands just enough SQL to exercise every path of the wire
 * protocol, with results that a test can predict:
 *   SELECT item[, item...]      items: integer literal, 'text', NULL, $n
 *   SELECT generate_series(1, N)           N rows of bigint
 *   SELECT pg_sleep(S)                     sleeps, honouring cancel (57014)
 *   SELECT * FROM t                        every stored row, text columns
 *   CREATE TABLE t (a int, b text, ...)    DROP TABLE [IF EXISTS] t
 *   COPY t FROM STDIN                      CSV lines, one field per column
 *   COPY t TO STDOUT
 *   SET statement_timeout = N | TO N       other SETs just answer SET
 *   BEGIN / COMMIT / ROLLBACK              transaction status I/T/E
 * Anything else is a syntax error (42601) with a position.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "db/database.h"

#define MAX_COLS 16

typedef struct ftable {
    struct ftable *next;
    char   name[64];
    int    ncols;
    char   cols[MAX_COLS][64];
    char **rows;    /* CSV lines */
    size_t nrows, cap;
} ftable;

struct attu_db {
    pthread_mutex_t mu;
    ftable *tables;
};

typedef struct fnamed {
    struct fnamed *next;
    char           name[64];
    attu_prepared *p;
} fnamed;

struct attu_session {
    attu_db    *db;
    atomic_int  cancel;
    int         timeout_ms;
    char        txn;
    fnamed     *named;       /* named prepared statements */
};

struct attu_prepared {
    int      refs;
    char    *sql;
    int      nparams;
    uint32_t oids[16];
    int      ncols;
    attu_result_column cols[MAX_COLS];
};

attu_db *attu_db_open(const attu_db_config *cfg, attu_error *err) {
    attu_db *db = calloc(1, sizeof *db);
    if (!db) { attu_error_oom(err); return NULL; }
    pthread_mutex_init(&db->mu, NULL);
    return db;
}

/* The fake never makes a statement wait for another session. */
void attu_db_set_wait_hooks(attu_db *db, void (*begin)(void *ctx), void (*end)(void *ctx), void *ctx) {
    (void)db; (void)begin; (void)end; (void)ctx;
}

void attu_db_close(attu_db *db) {
    if (!db) return;
    while (db->tables) {
        ftable *t = db->tables;
        db->tables = t->next;
        for (size_t i = 0; i < t->nrows; i++) free(t->rows[i]);
        free(t->rows);
        free(t);
    }
    pthread_mutex_destroy(&db->mu);
    free(db);
}

const char *attu_db_device_description(const attu_db *db) { return "CPU (fake)"; }

void attu_result_free(attu_result *res) {
    if (!res) return;
    for (int i = 0; i < res->ncols; i++) attu_column_free(res->cols[i]);
    free(res->cols);
    free(res->desc);
    free(res);
}

attu_session *attu_session_new(attu_db *db) {
    attu_session *s = calloc(1, sizeof *s);
    if (s) { s->db = db; s->txn = 'I'; }
    return s;
}
int attu_db_role_login(attu_db *db, const char *user, attu_role_login *out) {
    (void)db; (void)user;
    memset(out, 0, sizeof *out);
    return 0;   /* (the fake database has no roles) */
}

void attu_session_set_identity(attu_session *s, const char *user, const char *database) {
    (void)s; (void)user; (void)database;
}
const char *attu_session_setting(attu_session *s, const char *name) {
    (void)s; (void)name;
    return NULL;
}
int attu_session_set_client_setting(attu_session *s, const char *name, const char *value) {
    (void)s; (void)name; (void)value;
    return 0;
}
void attu_session_free(attu_session *s) {
    attu_session_prepared_drop(s, NULL);
    free(s);
}
char attu_session_txn_status(const attu_session *s) { return s->txn; }
uint64_t attu_session_blocks_ended(const attu_session *s) { (void)s; return 0; }

void attu_session_txn_failed(attu_session *s) { if (s->txn == 'T') s->txn = 'E'; }

int attu_session_sync(attu_session *s, attu_error *err) { (void)s; (void)err; return 0; }
void attu_session_cancel(attu_session *s) { atomic_store(&s->cancel, 1); }
/* sessions, signals and notifications: the fake has none to tell */
void attu_session_set_backend(attu_session *s, uint32_t pid, const char *client_addr, int client_port) {
    (void)s; (void)pid; (void)client_addr; (void)client_port;
}
uint32_t attu_session_pid(const attu_session *s) { (void)s; return 0; }
void attu_db_set_signal_hook(attu_db *db, void (*fn)(void *ctx, uint32_t pid, attu_backend_signal sig), void *ctx) {
    (void)db; (void)fn; (void)ctx;
}
attu_notification *attu_session_take_notifications(attu_session *s) { (void)s; return NULL; }
void attu_notifications_free(attu_notification *n) { (void)n; }
int attu_session_statement_timeout_ms(const attu_session *s) { return s->timeout_ms; }
const char *attu_session_timezone(const attu_session *s) { (void)s; return "UTC"; }
void attu_session_use_zone(const attu_session *s) { (void)s; }

/* ---- tiny lexer helpers ---------------------------------------------------- */

static const char *skip_ws(const char *p) {
    while (*p && isspace((unsigned char)*p)) p++;
    return p;
}

static bool word(const char **pp, const char *w) {
    const char *p = skip_ws(*pp);
    size_t n = strlen(w);
    if (strncasecmp(p, w, n) || isalnum((unsigned char)p[n]) || p[n] == '_') return false;
    *pp = p + n;
    return true;
}

static int ident(const char **pp, char *out, size_t cap) {
    const char *p = skip_ws(*pp);
    size_t n = 0;
    while (isalnum((unsigned char)p[n]) || p[n] == '_') n++;
    if (!n || n >= cap) return -1;
    for (size_t i = 0; i < n; i++) out[i] = (char)tolower((unsigned char)p[i]);
    out[n] = 0;
    *pp = p + n;
    return 0;
}

static int syntax(attu_error *err, const char *sql, const char *at) {
    at = skip_ws(at);
    char tok[32];
    size_t n = 0;
    while (at[n] && !isspace((unsigned char)at[n]) && n < sizeof tok - 1) { tok[n] = at[n]; n++; }
    tok[n] = 0;
    if (!n) return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, (int)(at - sql) + 1,
                                  "syntax error at end of input");
    return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, (int)(at - sql) + 1,
                          "syntax error at or near \"%s\"", tok);
}

static ftable *find_table(attu_db *db, const char *name) {
    for (ftable *t = db->tables; t; t = t->next)
        if (!strcmp(t->name, name)) return t;
    return NULL;
}

/* ---- results ------------------------------------------------------------ */

static attu_result *result_new(int ncols, size_t nrows, const char *tag) {
    attu_result *r = calloc(1, sizeof *r);
    r->ncols = ncols;
    r->nrows = nrows;
    r->returns_rows = ncols > 0;
    int cap = ncols > MAX_COLS ? ncols : MAX_COLS;   /* literal lists grow */
    r->desc = calloc((size_t)cap, sizeof *r->desc);
    r->cols = calloc((size_t)cap, sizeof *r->cols);
    snprintf(r->tag, sizeof r->tag, "%s", tag);
    return r;
}

static void set_text(attu_column *c, size_t row, const char *s) {
    if (!s) {
        if (!c->validity) c->validity = calloc((c->capacity + 63) / 64, 8), memset(c->validity, 0xff, (c->capacity + 63) / 64 * 8);
        c->validity[row >> 6] &= ~(UINT64_C(1) << (row & 63));
        ((char **)c->data)[row] = strdup("");
    } else {
        ((char **)c->data)[row] = strdup(s);
    }
    c->length = row + 1;
}

static int deliver(const attu_exec_callbacks *cb, attu_result *r) {
    int rc = cb && cb->on_result ? cb->on_result(cb->ctx, r) : 0;
    if (rc != ATTU_RESULT_KEEP) attu_result_free(r);
    return rc == ATTU_RESULT_KEEP ? 0 : rc;
}

/* ---- statements ------------------------------------------------------- */

typedef struct run_ctx {
    attu_session *s;
    const char *sql;                 /* the whole text, for positions */
    int nvalues;
    const char *const *values;
    const attu_exec_callbacks *cb;
} run_ctx;

static int run_select(run_ctx *x, const char *p, attu_error *err) {
    attu_db *db = x->s->db;
    const char *q = p;
    if (word(&q, "*") || (q = skip_ws(p), *q == '*')) {
        q = skip_ws(p) + 1;
        char name[64];
        if (!word(&q, "from") || ident(&q, name, sizeof name)) return syntax(err, x->sql, q);
        pthread_mutex_lock(&db->mu);
        ftable *t = find_table(db, name);
        if (!t) {
            pthread_mutex_unlock(&db->mu);
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, (int)(skip_ws(p) - x->sql) + 15,
                                  "relation \"%s\" does not exist", name);
        }
        char tag[64];
        snprintf(tag, sizeof tag, "SELECT %zu", t->nrows);
        attu_result *r = result_new(t->ncols, t->nrows, tag);
        for (int i = 0; i < t->ncols; i++) {
            snprintf(r->desc[i].name, sizeof r->desc[i].name, "%s", t->cols[i]);
            r->desc[i].type = attu_type_make(ATTU_TYPE_TEXT);
            r->cols[i] = attu_column_new(r->desc[i].type, t->nrows, err);
        }
        for (size_t row = 0; row < t->nrows; row++) {
            char *line = strdup(t->rows[row]), *save = NULL, *f = strtok_r(line, ",", &save);
            for (int i = 0; i < t->ncols; i++) {
                set_text(r->cols[i], row, f && *f ? f : NULL);
                f = strtok_r(NULL, ",", &save);
            }
            free(line);
        }
        pthread_mutex_unlock(&db->mu);
        return deliver(x->cb, r) ? -2 : 0;
    }
    q = p;
    if (word(&q, "generate_series")) {
        long a, b;
        if (sscanf(q, " ( %ld , %ld )", &a, &b) != 2) return syntax(err, x->sql, q);
        size_t n = b >= a ? (size_t)(b - a + 1) : 0;
        char tag[64];
        snprintf(tag, sizeof tag, "SELECT %zu", n);
        attu_result *r = result_new(1, n, tag);
        snprintf(r->desc[0].name, sizeof r->desc[0].name, "generate_series");
        r->desc[0].type = attu_type_make(ATTU_TYPE_INT64);
        r->cols[0] = attu_column_new(r->desc[0].type, n, err);
        for (size_t i = 0; i < n; i++) ((int64_t *)r->cols[0]->data)[i] = a + (long)i;
        r->cols[0]->length = n;
        return deliver(x->cb, r) ? -2 : 0;
    }
    q = p;
    if (word(&q, "pg_sleep")) {
        double secs;
        if (sscanf(q, " ( %lf )", &secs) != 1) return syntax(err, x->sql, q);
        for (double t = 0; t < secs; t += 0.005) {
            if (atomic_exchange(&x->s->cancel, 0))
                return attu_error_set(err, ATTU_SQLSTATE_QUERY_CANCELED, 0,
                                      "canceling statement due to user request");
            struct timespec ts = { 0, 5000000 };
            nanosleep(&ts, NULL);
        }
        attu_result *r = result_new(1, 1, "SELECT 1");
        snprintf(r->desc[0].name, sizeof r->desc[0].name, "pg_sleep");
        r->desc[0].type = attu_type_make(ATTU_TYPE_TEXT);
        r->cols[0] = attu_column_new(r->desc[0].type, 1, err);
        set_text(r->cols[0], 0, "");
        return deliver(x->cb, r) ? -2 : 0;
    }
    /* a list of literal items */
    attu_result *r = result_new(0, 1, "SELECT 1");
    r->returns_rows = true;
    q = p;
    for (;;) {
        q = skip_ws(q);
        if (r->ncols == MAX_COLS) break;
        int i = r->ncols;
        char buf[256];
        const char *val = NULL;
        attu_type type = attu_type_make(ATTU_TYPE_TEXT);
        int32_t ival = 0;
        if (*q == '\'') {   /* 'text', with '' for a quote */
            size_t n = 0;
            const char *e = q + 1;
            for (;; e++) {
                if (!*e || n + 1 >= sizeof buf) { attu_result_free(r); return syntax(err, x->sql, q); }
                if (*e == '\'' && e[1] == '\'') { buf[n++] = '\''; e++; continue; }
                if (*e == '\'') break;
                buf[n++] = *e;
            }
            buf[n] = 0;
            val = buf;
            q = e + 1;
        } else if (*q == '$') {
            int n = atoi(q + 1);
            if (n < 1 || n > x->nvalues) {
                attu_result_free(r);
                return attu_error_set(err, "42P02", (int)(q - x->sql) + 1,
                                      "there is no parameter $%d", n);
            }
            val = x->values[n - 1];
            q++;
            while (isdigit((unsigned char)*q)) q++;
        } else if (word(&q, "null")) {
            val = NULL;
        } else if (isdigit((unsigned char)*q) || *q == '-') {
            char *e;
            long v = strtol(q, &e, 10);
            ival = (int32_t)v;
            type = attu_type_make(ATTU_TYPE_INT32);
            q = e;
        } else if (word(&q, "error")) {
            attu_result_free(r);
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, (int)(q - x->sql) - 4,
                                  "column \"error\" does not exist");
        } else {
            attu_result_free(r);
            return syntax(err, x->sql, q);
        }
        r->ncols++;
        snprintf(r->desc[i].name, sizeof r->desc[i].name, "?column?");
        r->desc[i].type = type;
        r->cols[i] = attu_column_new(type, 1, err);
        if (type.id == ATTU_TYPE_INT32) {
            ((int32_t *)r->cols[i]->data)[0] = ival;
            r->cols[i]->length = 1;
        } else {
            set_text(r->cols[i], 0, val);
        }
        q = skip_ws(q);
        if (word(&q, "as")) {
            if (ident(&q, r->desc[i].name, sizeof r->desc[i].name)) { attu_result_free(r); return syntax(err, x->sql, q); }
            q = skip_ws(q);
        }
        if (*q == ',') { q++; continue; }
        break;
    }
    if (*skip_ws(q)) { attu_result_free(r); return syntax(err, x->sql, q); }
    return deliver(x->cb, r) ? -2 : 0;
}

static int run_copy(run_ctx *x, const char *p, attu_error *err) {
    attu_db *db = x->s->db;
    char name[64];
    if (ident(&p, name, sizeof name)) return syntax(err, x->sql, p);
    bool from = word(&p, "from");
    if (!from && !word(&p, "to")) return syntax(err, x->sql, p);
    if (!word(&p, from ? "stdin" : "stdout")) return syntax(err, x->sql, p);
    pthread_mutex_lock(&db->mu);
    ftable *t = find_table(db, name);
    int ncols = t ? t->ncols : 0;
    pthread_mutex_unlock(&db->mu);
    if (!t) return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0,
                                  "relation \"%s\" does not exist", name);
    const attu_exec_callbacks *cb = x->cb;
    char tag[64];
    if (!from) {
        if (!cb || !cb->copy_out_begin || cb->copy_out_begin(cb->ctx, ncols, false))
            return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "COPY TO STDOUT unavailable");
        pthread_mutex_lock(&db->mu);
        size_t n = t->nrows;
        for (size_t i = 0; i < n; i++) {
            char line[4096];
            int len = snprintf(line, sizeof line, "%s\n", t->rows[i]);
            if (cb->copy_out_data(cb->ctx, line, (size_t)len)) { pthread_mutex_unlock(&db->mu); return -2; }
        }
        pthread_mutex_unlock(&db->mu);
        snprintf(tag, sizeof tag, "COPY %zu", n);
        attu_result *r = result_new(0, 0, tag);
        return deliver(cb, r) ? -2 : 0;
    }
    if (!cb || !cb->copy_in_begin || cb->copy_in_begin(cb->ctx, ncols, false))
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "COPY FROM STDIN unavailable");
    /* read everything first, then apply all rows or none */
    size_t cap = 1 << 16, len = 0;
    char *data = malloc(cap);
    for (;;) {
        if (len + 65536 > cap) { cap *= 2; data = realloc(data, cap); }
        ssize_t n = cb->copy_in_read(cb->ctx, data + len, 65536, err);
        if (n < 0) { free(data); return -1; }
        if (n == 0) break;
        len += (size_t)n;
    }
    size_t nrows = 0, lineno = 0;
    char **rows = NULL;
    for (char *line = data; line < data + len;) {
        char *nl = memchr(line, '\n', (size_t)(data + len - line));
        size_t l = nl ? (size_t)(nl - line) : (size_t)(data + len - line);
        lineno++;
        if (l == 2 && !memcmp(line, "\\.", 2)) break;
        int fields = 1;
        for (size_t i = 0; i < l; i++) fields += line[i] == ',';
        if (fields != ncols) {
            for (size_t i = 0; i < nrows; i++) free(rows[i]);
            free(rows);
            free(data);
            attu_error_set(err, ATTU_SQLSTATE_BAD_COPY_FORMAT, 0,
                           fields < ncols ? "missing data for column" : "extra data after last expected column");
            attu_error_set_detail(err, "COPY %s, line %zu", name, lineno);
            return -1;
        }
        rows = realloc(rows, (nrows + 1) * sizeof *rows);
        rows[nrows++] = strndup(line, l);
        line += l + 1;
    }
    free(data);
    pthread_mutex_lock(&db->mu);
    for (size_t i = 0; i < nrows; i++) {
        if (t->nrows == t->cap) {
            t->cap = t->cap ? t->cap * 2 : 16;
            t->rows = realloc(t->rows, t->cap * sizeof *t->rows);
        }
        t->rows[t->nrows++] = rows[i];
    }
    pthread_mutex_unlock(&db->mu);
    free(rows);
    snprintf(tag, sizeof tag, "COPY %zu", nrows);
    return deliver(cb, result_new(0, 0, tag)) ? -2 : 0;
}

static int run_one(run_ctx *x, const char *p, attu_error *err) {
    attu_session *s = x->s;
    attu_db *db = s->db;
    const char *start = p;
    if (s->txn == 'E' && !word(&p, "rollback") && !word(&p, "commit"))
        return attu_error_set(err, "25P02", 0,
            "current transaction is aborted, commands ignored until end of transaction block");
    p = start;
    if (word(&p, "select")) return run_select(x, p, err);
    if (word(&p, "copy")) return run_copy(x, p, err);
    const char *tag = NULL;
    if (word(&p, "begin")) { s->txn = 'T'; tag = "BEGIN"; }
    else if (word(&p, "commit")) { tag = s->txn == 'E' ? "ROLLBACK" : "COMMIT"; s->txn = 'I'; }
    else if (word(&p, "rollback")) { s->txn = 'I'; tag = "ROLLBACK"; }
    else if (word(&p, "set")) {
        char name[64];
        if (ident(&p, name, sizeof name)) return syntax(err, x->sql, p);
        if (!word(&p, "to")) { p = skip_ws(p); if (*p == '=') p++; }
        if (!strcmp(name, "statement_timeout")) {
            p = skip_ws(p);
            if (*p == '\'') p++;
            s->timeout_ms = atoi(p);
        }
        while (*p && *p != ';') p++;   /* the value */
        tag = "SET";
    } else if (word(&p, "create")) {
        if (!word(&p, "table")) return syntax(err, x->sql, p);
        ftable t;
        memset(&t, 0, sizeof t);
        if (ident(&p, t.name, sizeof t.name)) return syntax(err, x->sql, p);
        p = skip_ws(p);
        if (*p != '(') return syntax(err, x->sql, p);
        p++;
        for (;;) {
            char type[64];
            if (t.ncols == MAX_COLS || ident(&p, t.cols[t.ncols], 64) || ident(&p, type, sizeof type))
                return syntax(err, x->sql, p);
            t.ncols++;
            p = skip_ws(p);
            if (*p == ',') { p++; continue; }
            if (*p == ')') { p++; break; }
            return syntax(err, x->sql, p);
        }
        pthread_mutex_lock(&db->mu);
        if (find_table(db, t.name)) {
            pthread_mutex_unlock(&db->mu);
            return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0,
                                  "relation \"%s\" already exists", t.name);
        }
        ftable *nt = malloc(sizeof *nt);
        *nt = t;
        nt->next = db->tables;
        db->tables = nt;
        pthread_mutex_unlock(&db->mu);
        tag = "CREATE TABLE";
    } else if (word(&p, "drop")) {
        if (!word(&p, "table")) return syntax(err, x->sql, p);
        bool if_exists = word(&p, "if") && word(&p, "exists");
        char name[64];
        if (ident(&p, name, sizeof name)) return syntax(err, x->sql, p);
        pthread_mutex_lock(&db->mu);
        ftable **pp = &db->tables;
        while (*pp && strcmp((*pp)->name, name)) pp = &(*pp)->next;
        ftable *t = *pp;
        if (t) *pp = t->next;
        pthread_mutex_unlock(&db->mu);
        if (!t) {
            if (!if_exists)
                return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0,
                                      "table \"%s\" does not exist", name);
            char msg[128];
            snprintf(msg, sizeof msg, "table \"%s\" does not exist, skipping", name);
            if (x->cb && x->cb->on_notice) x->cb->on_notice(x->cb->ctx, "00000", msg);
        } else {
            for (size_t i = 0; i < t->nrows; i++) free(t->rows[i]);
            free(t->rows);
            free(t);
        }
        tag = "DROP TABLE";
    } else {
        return syntax(err, x->sql, start);
    }
    if (*skip_ws(p)) return syntax(err, x->sql, p);
    return deliver(x->cb, result_new(0, 0, tag)) ? -2 : 0;
}

/* Splits at semicolons outside quotes; runs each non-empty statement. */
static int run_all(run_ctx *x, attu_error *err) {
    char *copy = strdup(x->sql);
    int ran = 0, rc = 0;
    char *p = copy;
    while (*p && rc == 0) {
        char *e = p;
        bool quoted = false;
        while (*e && (quoted || *e != ';')) { if (*e == '\'') quoted = !quoted; e++; }
        bool last = !*e;
        *e = 0;
        if (*skip_ws(p)) {
            /* copy has the original's offsets, with NULs at the semicolons */
            run_ctx sub = *x;
            sub.sql = copy;
            ran++;
            atomic_store(&x->s->cancel, 0);
            rc = run_one(&sub, p, err);
            if (rc == -1 && x->s->txn == 'T') x->s->txn = 'E';
        }
        if (last) break;
        p = e + 1;
    }
    free(copy);
    if (rc < 0) return rc;
    return ran ? 0 : 1;
}

int attu_session_exec(attu_session *s, const char *sql, const attu_exec_callbacks *cb) {
    attu_error err;
    memset(&err, 0, sizeof err);
    run_ctx x = { s, sql, 0, NULL, cb };
    int rc = run_all(&x, &err);
    if (rc == -1 && cb && cb->on_error) cb->on_error(cb->ctx, &err);
    return rc < 0 ? -1 : rc;
}

attu_prepared *attu_prepare(attu_session *s, const char *sql, int nparam_oids,
                            const uint32_t *param_oids, attu_error *err) {
    attu_prepared *p = calloc(1, sizeof *p);
    p->refs = 1;
    p->sql = strdup(sql);
    for (size_t n = strlen(p->sql); n && (p->sql[n - 1] == ';' || isspace((unsigned char)p->sql[n - 1]));)
        p->sql[--n] = 0;   /* one statement: a trailing ';' is allowed */
    if (!*skip_ws(p->sql)) return p;   /* empty */
    for (const char *q = sql; (q = strchr(q, '$')); q++) {
        int n = atoi(q + 1);
        if (n > p->nparams && n <= 16) p->nparams = n;
    }
    for (int i = 0; i < p->nparams; i++)
        p->oids[i] = i < nparam_oids && param_oids[i] ? param_oids[i] : ATTU_PG_OID_TEXT;
    /* describe by running the statement with NULL parameters on a dry session */
    const char *q = sql;
    if (word(&q, "select")) {
        q = skip_ws(q);
        if (!strncasecmp(q, "generate_series", 15)) {
            p->ncols = 1;
            snprintf(p->cols[0].name, 64, "generate_series");
            p->cols[0].type = attu_type_make(ATTU_TYPE_INT64);
        } else if (*q != '*') {
            for (const char *t = q; *t && p->ncols < MAX_COLS;) {
                snprintf(p->cols[p->ncols].name, 64, "?column?");
                t = skip_ws(t);
                p->cols[p->ncols].type = attu_type_make(
                    isdigit((unsigned char)*t) || *t == '-' ? ATTU_TYPE_INT32 : ATTU_TYPE_TEXT);
                p->ncols++;
                t = strchr(t, ',');
                if (!t) break;
                t++;
            }
        }
    } else if (!word(&q, "set") && !word(&q, "create") && !word(&q, "copy") &&
               !word(&q, "begin") && !word(&q, "commit") && !word(&q, "rollback") &&
               !word(&q, "drop")) {
        syntax(err, sql, sql);
        attu_prepared_free(p);
        return NULL;
    }
    return p;
}

/* The fake's statements have no identifiers to truncate: no notices. */
attu_prepared *attu_prepare_notify(attu_session *s, const char *sql, int nparam_oids,
                                   const uint32_t *param_oids, attu_error *err,
                                   const attu_exec_callbacks *cb) {
    (void)cb;
    return attu_prepare(s, sql, nparam_oids, param_oids, err);
}

attu_prepared *attu_prepared_ref(attu_prepared *p) {
    if (p) p->refs++;
    return p;
}
const char *attu_prepared_sql(const attu_prepared *p) { return p->sql; }
bool attu_prepared_empty(const attu_prepared *p) { return !*skip_ws(p->sql); }

/* the session's named statements, as db/db_prepared_names.c keeps them */
int attu_session_prepared_add(attu_session *s, const char *name, attu_prepared *p, attu_error *err) {
    if (attu_session_prepared_find(s, name))
        return attu_error_set(err, "42P05", 0, "prepared statement \"%s\" already exists", name);
    fnamed *n = calloc(1, sizeof *n);
    if (!n) return attu_error_set(err, "53200", 0, "out of memory");
    snprintf(n->name, sizeof n->name, "%s", name);
    n->p = attu_prepared_ref(p);
    n->next = s->named;
    s->named = n;
    return 0;
}
attu_prepared *attu_session_prepared_find(attu_session *s, const char *name) {
    for (fnamed *n = s->named; n; n = n->next)
        if (!strcmp(n->name, name)) return n->p;
    return NULL;
}
int attu_session_prepared_drop(attu_session *s, const char *name) {
    int found = -1;
    for (fnamed **pp = &s->named; *pp;) {
        fnamed *n = *pp;
        if (name && strcmp(n->name, name)) { pp = &n->next; continue; }
        *pp = n->next;
        attu_prepared_free(n->p);
        free(n);
        found = 0;
    }
    return name ? found : 0;
}

void attu_prepared_free(attu_prepared *p) {
    if (!p || --p->refs > 0) return;
    free(p->sql);
    free(p);
}
int attu_prepared_param_count(const attu_prepared *p) { return p->nparams; }
uint32_t attu_prepared_param_oid(const attu_prepared *p, int i) { return p->oids[i]; }
/* the stand-in database reads every parameter as text */
int attu_prepared_check_param(const attu_prepared *p, int i, const char *text, size_t len, attu_error *err) {
    (void)p; (void)i; (void)text; (void)len; (void)err;
    return 0;
}
int attu_prepared_describe(const attu_prepared *p, const attu_result_column **cols) {
    *cols = p->ncols ? p->cols : NULL;
    return p->ncols;
}

/* the fake database has no SQL cursors */
int attu_session_cursor_describe(attu_session *s, const char *name, int *ncols,
                                 attu_result_column **cols, bool *binary) {
    (void)s; (void)name;
    *ncols = 0;
    *cols = NULL;
    *binary = false;
    return 0;
}

int attu_prepared_execute(attu_session *s, attu_prepared *p, int nvalues,
                          const char *const *values, const attu_exec_callbacks *cb) {
    attu_error err;
    memset(&err, 0, sizeof err);
    run_ctx x = { s, p->sql, nvalues, values, cb };
    atomic_store(&s->cancel, 0);
    int rc = run_one(&x, p->sql, &err);
    if (rc == -1 && cb && cb->on_error) cb->on_error(cb->ctx, &err);
    return rc < 0 ? -1 : 0;
}
