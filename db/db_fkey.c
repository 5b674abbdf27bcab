/*
 * db_fkey.c - FOREIGN KEY constraints: defining them, and enforcing them
 * on every statement that changes either side.
 *
 * A foreign key (engine/fkey.h) lives with its referencing table, the
 * child; the referenced table, the parent, is found by name. Every check
 * is a query over the rows in question, run by the executor on whichever
 * backend the database uses, as db_check.c's are, so "equal" is the
 * type's equality anywhere (int = bigint, C collation text). The rows in
 * question are gathered into a table of their own, put in the catalog
 * under a name no statement can write (it starts with \001) for the
 * query, and the candidate versions stand in the catalog for their
 * tables while the statement's foreign keys run. So each check is one
 * join over a statement's rows, never a loop over a table:
 *
 *   - new or changed child rows (INSERT, COPY, UPDATE, ON CONFLICT, an
 *     action's change): the first row whose key is complete and has no
 *     match in the parent,
 *
 *         SELECT min(g.rowid) FROM probe g LEFT JOIN p ON p.k1 = g.a AND ...
 *         WHERE g.a IS NOT NULL AND ... AND p.k1 IS NULL
 *
 *     (MATCH SIMPLE: a key with a NULL passes; MATCH FULL also fails a
 *     key that mixes NULLs and values);
 *   - parent rows removed, or whose key changed (DELETE, UPDATE,
 *     ON CONFLICT, an action's change): their old keys, gathered, join the
 *     child. CASCADE deletes the child rows that match (or sets their key
 *     to the parent row's new one), SET NULL / SET DEFAULT set it, and
 *     each such change is a statement's change in turn: checked (NOT
 *     NULL, CHECK, UNIQUE, its own foreign keys) and followed by its own
 *     actions. NO ACTION and RESTRICT check, in their turn among the
 *     actions (PostgreSQL's triggers run in the order the constraints
 *     were made, after the statement's own rows changed), that no child
 *     row still holds an old key (NO ACTION: one no parent row holds
 *     again), else 23503. A changed child row is checked only against
 *     the foreign keys whose columns it changed, as PostgreSQL skips the
 *     others.
 *
 * The child side goes through the referenced key's index instead when
 * it can (the hash set db_unique.c keeps of a PRIMARY KEY / UNIQUE
 * constraint's keys, engine/key_set.h): each new key is looked up, so a
 * statement costs O(its rows) however large the referenced table. That
 * needs the same key types on both sides (text and varchar alike) and a
 * referenced table this statement did not change (a candidate version
 * carries no index); ATTU_UNIQUE_INDEX=off takes the queries always.
 * The referenced side's checks join the old keys with the referencing
 * table (which has no index on its key: PostgreSQL too scans it then).
 *
 * All or nothing: the child tables an action changes get new versions
 * in the catalog, the old ones kept until the statement's own table is
 * saved (db_fkey_commit) or put back should anything fail
 * (db_fkey_abort). Which row PostgreSQL reports is its row-by-row order's
 * first: the first row in table order that fails, and on a tie the
 * constraint defined first.
 *
 * A DEFERRABLE foreign key's checks may wait (INITIALLY DEFERRED, SET
 * CONSTRAINTS ... DEFERRED): the rows in question are queued instead
 * (db/db_defer.c) and checked when it comes due
 * (db_fkey_check_deferred); its actions and RESTRICT run at the end of
 * the statement as always.
 */
#include "db/db_internal.h"
#include "db/db_generated.h"
#include "db/db_check.h"
#include "db/db_domain_check.h"
#include "db/db_fkey.h"
#include "db/db_unique.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/strbuf.h"
#include "engine/key_set.h"
#include "engine/table_rewrite.h"
#include "planner/lexer.h"

#define ROWID "\"" ATTU_ROWID_INTERNAL "\""
/* actions that trigger actions (a self-referencing CASCADE chain: one
 * level a link), each level a few frames of this file on the session's
 * stack: 54001 past it, as PostgreSQL's max_stack_depth stops its own */
#define MAX_DEPTH 1000

typedef attu_strbuf fbuf;   /* (engine/strbuf.h: an allocation failure sets oom) */
#define put(b, s) ((void)attu_strbuf_puts((b), (s)))
#define put_ident(b, name) ((void)attu_strbuf_quote_ident((b), (name)))

/* alias.column */
static void put_col(fbuf *b, const char *alias, const char *name) {
    put(b, alias);
    put(b, ".");
    put_ident(b, name);
}

/* la.lcol1 = ra.rcol1 AND ... over a key's n columns (column numbers into
 * each table's defs) */
static void put_key_eq(fbuf *b, int n, const char *la, const attu_table *lt, const int *lcols, const char *ra,
                       const attu_table *rt, const int *rcols) {
    for (int j = 0; j < n; j++) {
        if (j) put(b, " AND ");
        put_col(b, la, lt->defs[lcols[j]].name);
        put(b, " = ");
        put_col(b, ra, rt->defs[rcols[j]].name);
    }
}

/* A column name as PostgreSQL's messages print it (quote_identifier). */
static void put_name(fbuf *b, const char *name) {
    bool plain = (name[0] >= 'a' && name[0] <= 'z') || name[0] == '_';
    for (const char *p = name; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
    if (plain && !attu_keyword_needs_quotes(name)) put(b, name);
    else put_ident(b, name);
}

/* "Key (a, b)=(1, x)" of row r of t over cols. */
static void put_key(fbuf *b, const attu_table *t, const int *cols, int n, size_t r) {
    put(b, "Key (");
    for (int j = 0; j < n; j++) {
        if (j) put(b, ", ");
        put_name(b, t->defs[cols[j]].name);
    }
    put(b, ")=(");
    for (int j = 0; j < n; j++) {
        if (j) put(b, ", ");
        char buf[256];
        const char *lng = NULL;
        size_t len = attu_column_format(t->cols[cols[j]], r, buf, sizeof buf - 1, &lng);
        if (len == (size_t)-1) { put(b, "null"); continue; }
        if (lng) {
            char *c = malloc(len + 1);
            if (!c) { b->oom = true; continue; }
            memcpy(c, lng, len);
            c[len] = 0;
            put(b, c);
            free(c);
        } else {
            buf[len < sizeof buf ? len : sizeof buf - 1] = 0;
            put(b, buf);
        }
    }
    put(b, ")");
}

/* The type t as SQL that reads back as t (CAST targets). */
static const char *type_sql(attu_type t, char *buf, size_t cap) {
    if (attu_type_is_qualified_interval(t)) return attu_type_interval_name(t, buf, cap);
    if (attu_type_is_bpchar(t)) snprintf(buf, cap, "character(%d)", t.precision);
    else if (attu_type_is_varchar_any(t) && t.precision > 0) snprintf(buf, cap, "character varying(%d)", t.precision);
    else attu_type_name(t, buf, cap);
    return buf;
}

/* ---- running the queries ------------------------------------------------------------------ */

static attu_result *run_sql(attu_session *s, const fbuf *b, attu_error *err) {
    if (b->oom) { attu_error_oom(err); return NULL; }
    attu_parse_result *pr = attu_parse(b->p, err);
    if (!pr) return NULL;
    attu_result *res = NULL;
    const attu_ast_stmt *st = pr->n == 1 ? pr->stmts[0].stmt : NULL;
    if (!st || st->kind != ATTU_STMT_SELECT)
        attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "foreign key query does not parse");
    else
        res = db_run_query(s, b->p, st->u.select.query, &db_own_query_params, err);
    attu_parse_free(pr);
    if (!res) err->position = 0;
    return res;
}

/* A gathered table of rows rows[0..n) of t, in the catalog under name
 * (its rowid is the index into rows). */
static attu_table *temp_rows(attu_session *s, const attu_table *t, const size_t *rows, size_t n, const char *name,
                             attu_error *err) {
    attu_table *g = db_gather_rows(t, rows, n, name, err);
    if (!g) return NULL;
    if (attu_catalog_add(db_cat(s), g, err)) { attu_table_free(g); return NULL; }
    return g;
}

static void temp_drop(attu_session *s, const char *name) {
    attu_table_free(attu_catalog_remove(db_cat(s), name, true, NULL));
}

/* ---- the statement's versions --------------------------------------------------------------- */

typedef struct swap { attu_table *old, *cur; } swap;

struct db_fkey_txn {
    swap    *swaps;      /* tables changed, each once: its first old and current version */
    int      nswaps;
    int      serial;     /* names of gathered tables */
    attu_table **garbage;   /* versions between a table's first and last: freed at the end */
    int      ngarbage;
};

/* skip: a version the caller still owns */
static void txn_free(db_fkey_txn *x, const attu_table *skip) {
    if (!x) return;
    for (int i = 0; i < x->ngarbage; i++) if (x->garbage[i] != skip) attu_table_free(x->garbage[i]);
    free(x->garbage);
    free(x->swaps);
    free(x);
}

/* Puts version t of its table in the catalog, remembering the one it
 * replaces: the first time the table changes, the version to put back;
 * later, one only this statement has seen (freed at the end). */
static int install(db_fkey_txn *x, attu_session *s, attu_table *t, attu_error *err) {
    for (int i = 0; i < x->nswaps; i++)
        if (!strcmp(x->swaps[i].cur->name, t->name)) {
            attu_table **g = realloc(x->garbage, sizeof *g * (size_t)(x->ngarbage + 1));
            if (!g) return attu_error_oom(err);
            x->garbage = g;
            /* (the version before stays until the end: the actions that
             * follow read it as the change's "before") */
            g[x->ngarbage++] = attu_catalog_replace(db_cat(s), t);
            x->swaps[i].cur = t;
            return 0;
        }
    swap *sw = realloc(x->swaps, sizeof *sw * (size_t)(x->nswaps + 1));
    if (!sw) return attu_error_oom(err);
    x->swaps = sw;
    sw[x->nswaps].old = attu_catalog_replace(db_cat(s), t);
    sw[x->nswaps++].cur = t;
    return 0;
}

/* Every table back as it was; the versions the statement made freed
 * except keep (the caller's). */
static void restore(db_fkey_txn *x, attu_session *s, const attu_table *keep) {
    for (int i = x->nswaps - 1; i >= 0; i--) {
        attu_table *cur = attu_catalog_replace(db_cat(s), x->swaps[i].old);
        if (cur != keep && cur != x->swaps[i].old) attu_table_free(cur);
    }
    x->nswaps = 0;
}

/* ---- definition ----------------------------------------------------------------------------- */

typedef enum tclass { T_OTHER, T_INT, T_FLOAT, T_NUMERIC, T_TEXT, T_DATETIME } tclass;

static tclass class_of(attu_type t) {
    if (attu_type_is_array(t)) return T_OTHER;
    switch (t.id) {
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_INT64: return T_INT;
    case ATTU_TYPE_FLOAT32: case ATTU_TYPE_FLOAT64: return T_FLOAT;
    case ATTU_TYPE_DECIMAL: case ATTU_TYPE_NUMERIC: return T_NUMERIC;
    case ATTU_TYPE_TEXT: return T_TEXT;
    case ATTU_TYPE_DATE: case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIMESTAMPTZ: return T_DATETIME;
    default: return T_OTHER;
    }
}

/* Whether a key column of type fk can reference one of type pk: the
 * same type, or one PostgreSQL finds an equality for in the referenced
 * key's operator family, the referencing value implicitly cast (the
 * integers among themselves, the floats, an integer or numeric to a
 * float, an integer to numeric, the string types, the date / timestamp
 * types). */
static bool comparable(attu_type fk, attu_type pk) {
    if (fk.id == pk.id && attu_type_is_array(fk) == attu_type_is_array(pk) &&
        (!attu_type_is_array(fk) || attu_type_equal(fk, pk)))
        return true;
    tclass a = class_of(fk), b = class_of(pk);
    if (a == T_OTHER || b == T_OTHER) return false;
    if (a == b) return true;
    if (b == T_FLOAT) return a == T_INT || a == T_NUMERIC;
    if (b == T_NUMERIC) return a == T_INT;
    return false;
}

static bool name_taken(const attu_catalog *cat, const attu_table *t, const attu_unique *tu, int ntu,
                       const attu_check *checks, int nchecks, const attu_fkey *fs, int nf, const char *name) {
    for (int i = 0; i < ntu; i++) if (!strcmp(tu[i].name, name)) return true;
    for (int i = 0; i < nchecks; i++) if (!strcmp(checks[i].name, name)) return true;
    for (int i = 0; i < nf; i++) if (!strcmp(fs[i].name, name)) return true;
    if (attu_catalog_constraint_owner(cat, name, NULL)) return true;
    for (size_t i = 0; i < attu_catalog_count(cat); i++) {
        const attu_table *o = attu_catalog_at(cat, i);
        if (o == t || !strcmp(o->name, t->name)) continue;
        int n = 0;
        const attu_check *c = attu_catalog_checks(cat, o->name, &n);
        for (int k = 0; k < n; k++) if (!strcmp(c[k].name, name)) return true;
        const attu_fkey *f = attu_catalog_fkeys(cat, o->name, &n);
        for (int k = 0; k < n; k++) if (!strcmp(f[k].name, name)) return true;
    }
    return false;
}

static int check_existing(attu_session *s, attu_table *t, const attu_fkey *f, attu_error *err);

/* A number for a new foreign key's `made`, larger than any before (in
 * this process, and across restarts: microseconds since the epoch unless
 * the clock stands still or goes back). */
static uint64_t next_made(void) {
    static uint64_t last;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t now = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
    uint64_t prev = __atomic_load_n(&last, __ATOMIC_RELAXED), v;
    do v = now > prev ? now : prev + 1;
    while (!__atomic_compare_exchange_n(&last, &prev, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return v;
}

int db_fkey_define(attu_session *s, attu_table *t, const attu_unique *tu, int ntu, const attu_ast_unique_def *const *ds,
                   int n, const attu_fkey *have, int nhave, const attu_check *checks, int nchecks, bool check_rows,
                   attu_fkey **out, int *nout, attu_error *err) {
    attu_fkey *all = calloc((size_t)(nhave + n) + 1, sizeof *all);
    if (!all) return attu_error_oom(err);
    int m = 0;
    for (int i = 0; i < nhave; i++) all[m++] = have[i];
    for (int i = 0; i < n; i++) {
        const attu_ast_unique_def *d = ds[i];
        const attu_ast_fkey *a = d->fkey;
        attu_fkey *f = &all[m];
        memset(f, 0, sizeof *f);
        /* (INITIALLY DEFERRED implies DEFERRABLE, as in PostgreSQL: the
         * grammar refused NOT DEFERRABLE with it) */
        f->deferrable = a->deferrable || a->initially_deferred;
        f->initially_deferred = a->initially_deferred;
        /* the referenced table: t itself, or another of the catalog */
        const attu_table *p = NULL;
        const attu_unique *pu = NULL;
        int npu = 0;
        if (!strcmp(a->ref_table, t->name)) {
            p = t;
            pu = tu;
            npu = ntu;
        } else {
            p = attu_catalog_lookup(db_cat(s), a->ref_table);
            if (!p) {
                if (attu_views_find(attu_catalog_views(db_cat(s)), a->ref_table))
                    attu_error_set(err, "42809", 0, "referenced relation \"%s\" is not a table", a->ref_table);
                else
                    db_no_such_table(s, a->ref_table, a->ref_position, err);
                goto fail;
            }
            pu = attu_catalog_uniques(db_cat(s), p->name, &npu);
        }
        snprintf(f->ref_table, sizeof f->ref_table, "%s", p->name);
        f->match = a->match ? a->match : ATTU_FK_MATCH_SIMPLE;
        f->on_update = a->on_update ? a->on_update : ATTU_FK_NO_ACTION;
        f->on_delete = a->on_delete ? a->on_delete : ATTU_FK_NO_ACTION;
        if (d->columns.n > ATTU_INDEX_MAX_KEYS) {
            attu_error_set(err, "54011", 0, "cannot use more than %d keys in a foreign key", ATTU_INDEX_MAX_KEYS);
            goto fail;
        }
        f->ncols = d->columns.n;
        for (int j = 0; j < d->columns.n; j++) {
            int c = attu_table_find_column(t, d->columns.items[j]);
            if (c < 0) {
                attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, 0,
                               "column \"%s\" referenced in foreign key constraint does not exist", d->columns.items[j]);
                goto fail;
            }
            f->cols[j] = c;
        }
        /* ON DELETE SET NULL / SET DEFAULT (cols): each a column of the
         * key (PostgreSQL's 42P10), kept once in the order first written */
        f->ndelete_set = 0;
        for (int j = 0; j < a->delete_set_columns.n; j++) {
            const char *nm = a->delete_set_columns.items[j];
            int c = attu_table_find_column(t, nm);
            if (c < 0) {
                attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, 0,
                               "column \"%s\" referenced in foreign key constraint does not exist", nm);
                goto fail;
            }
            int key = -1;
            for (int q = 0; q < f->ncols && key < 0; q++) if (f->cols[q] == c) key = q;
            if (key < 0) {
                attu_error_set(err, "42P10", 0, "column \"%s\" referenced in ON DELETE SET action must be part of foreign key",
                               nm);
                goto fail;
            }
            bool seen = false;
            for (int q = 0; q < f->ndelete_set; q++) seen |= f->delete_set[q] == key;
            if (!seen) f->delete_set[f->ndelete_set++] = key;
        }
        /* the referenced columns: as written (a PRIMARY KEY or UNIQUE
         * constraint must have exactly them), or the primary key */
        const attu_unique *match = NULL;
        if (a->ref_columns.n) {
            if (a->ref_columns.n > ATTU_INDEX_MAX_KEYS) {
                attu_error_set(err, "54011", 0, "cannot use more than %d keys in a foreign key", ATTU_INDEX_MAX_KEYS);
                goto fail;
            }
            for (int j = 0; j < a->ref_columns.n; j++) {
                int c = attu_table_find_column(p, a->ref_columns.items[j]);
                if (c < 0) {
                    attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, 0,
                                   "column \"%s\" referenced in foreign key constraint does not exist",
                                   a->ref_columns.items[j]);
                    goto fail;
                }
                f->ref_cols[j] = c;
            }
            /* (a deferrable key may hold duplicates until COMMIT: no
             * foreign key may reference it, as in PostgreSQL) */
            bool found_deferrable = false;
            for (int k = 0; k < npu && !match; k++) {
                if (pu[k].ncols != a->ref_columns.n) continue;
                bool same = true;
                for (int j = 0; j < a->ref_columns.n && same; j++) {
                    bool in = false;
                    for (int q = 0; q < pu[k].ncols; q++) in |= pu[k].cols[q] == f->ref_cols[j];
                    for (int q = 0; q < j; q++) if (f->ref_cols[q] == f->ref_cols[j]) in = false;
                    same = in;
                }
                if (same && pu[k].deferrable) found_deferrable = true;
                else if (same) match = &pu[k];
            }
            if (!match && found_deferrable) {
                attu_error_set(err, "55000", 0, "cannot use a deferrable unique constraint for referenced table \"%s\"",
                               p->name);
                goto fail;
            }
            if (!match) {
                attu_error_set(err, "42830", 0, "there is no unique constraint matching given keys for referenced table \"%s\"",
                               p->name);
                goto fail;
            }
            if (a->ref_columns.n != f->ncols) {
                attu_error_set(err, "42830", 0, "number of referencing and referenced columns for foreign key disagree");
                goto fail;
            }
        } else {
            for (int k = 0; k < npu && !match; k++) if (pu[k].primary) match = &pu[k];
            if (!match) {
                attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "there is no primary key for referenced table \"%s\"",
                               p->name);
                goto fail;
            }
            if (match->deferrable) {
                attu_error_set(err, "55000", 0, "cannot use a deferrable primary key for referenced table \"%s\"", p->name);
                goto fail;
            }
            if (match->ncols != f->ncols) {
                attu_error_set(err, "42830", 0, "number of referencing and referenced columns for foreign key disagree");
                goto fail;
            }
            for (int j = 0; j < f->ncols; j++) f->ref_cols[j] = match->cols[j];
        }
        /* the name: given (new among the table's constraints), or
         * PostgreSQL's t_a_b_fkey, numbered past the names taken */
        if (d->name) {
            /* (another table's constraint may have the name) */
            bool own = false;
            for (int k = 0; k < ntu; k++) own |= !strcmp(tu[k].name, d->name);
            for (int k = 0; k < nchecks; k++) own |= !strcmp(checks[k].name, d->name);
            for (int k = 0; k < m; k++) own |= !strcmp(all[k].name, d->name);
            if (own) {
                attu_error_set(err, "42710", 0, "constraint \"%s\" for relation \"%s\" already exists", d->name,
                               t->name);
                goto fail;
            }
            snprintf(f->name, sizeof f->name, "%s", d->name);
        } else {
            char cols[ATTU_NAME_MAX + 1] = "";
            size_t len = 0;
            for (int j = 0; j < f->ncols && len < ATTU_NAME_MAX; j++)
                len += (size_t)snprintf(cols + len, sizeof cols - len, "%s%s", j ? "_" : "", t->defs[f->cols[j]].name);
            char label[32];
            for (int pass = 0;; pass++) {
                if (pass) snprintf(label, sizeof label, "fkey%d", pass);
                else snprintf(label, sizeof label, "fkey");
                db_object_name(t->name, cols, label, f->name);
                if (!name_taken(db_cat(s), t, tu, ntu, checks, nchecks, all, m, f->name)) break;
            }
        }
        /* comparable key types: 42804 in PostgreSQL's words */
        for (int j = 0; j < f->ncols; j++) {
            attu_type ft = t->defs[f->cols[j]].type, pt = p->defs[f->ref_cols[j]].type;
            if (comparable(ft, pt)) continue;
            char a1[96], a2[96];
            attu_type_name(ft, a1, sizeof a1);
            attu_type_name(pt, a2, sizeof a2);
            attu_error_set(err, ATTU_SQLSTATE_DATATYPE_MISMATCH, 0, "foreign key constraint \"%s\" cannot be implemented",
                           f->name);
            attu_error_set_detail(err, "Key columns \"%s\" and \"%s\" are of incompatible types: %s and %s.",
                                  t->defs[f->cols[j]].name, p->defs[f->ref_cols[j]].name, a1, a2);
            goto fail;
        }
        f->made = next_made();
        m++;
        /* ALTER TABLE ... ADD ... NOT VALID: the rows there are stay
         * unchecked until VALIDATE CONSTRAINT (CREATE TABLE, which has no
         * rows to check, ignores it) */
        f->not_valid = check_rows && d->not_valid;
        if (check_rows && !f->not_valid && t->nrows && check_existing(s, t, f, err)) goto fail;
    }
    *out = all;
    *nout = m;
    return 0;
fail:
    free(all);
    return -1;
}

/* ---- the child's rows --------------------------------------------------------------------- */

/* The rows of probe (a gathered copy of some of t's rows, in the catalog
 * under pname) that fail f: the first one (its index in probe), -1 when
 * none; *mixed: it fails MATCH FULL's rule (NULLs and values mixed). */
static int first_orphan(attu_session *s, const attu_table *t, const attu_fkey *f, const char *pname, int64_t *row,
                        bool *mixed, attu_error *err) {
    const attu_table *p = attu_catalog_lookup(db_cat(s), f->ref_table);
    *row = -1;
    *mixed = false;
    if (!p) return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "referenced table \"%s\" is missing", f->ref_table);
    fbuf b = { 0 };
    put(&b, "SELECT min(g." ROWID ") FROM ");
    put_ident(&b, pname);
    put(&b, " AS g LEFT JOIN ");
    put_ident(&b, p->name);
    put(&b, " AS p ON ");
    put_key_eq(&b, f->ncols, "p", p, f->ref_cols, "g", t, f->cols);
    put(&b, " WHERE ");
    for (int j = 0; j < f->ncols; j++) {
        put_col(&b, "g", t->defs[f->cols[j]].name);
        put(&b, " IS NOT NULL AND ");
    }
    put_col(&b, "p", p->defs[f->ref_cols[0]].name);
    put(&b, " IS NULL");
    if (f->match == ATTU_FK_MATCH_FULL && f->ncols > 1) {
        /* (a second column: the first row whose key mixes NULLs and values) */
        put(&b, " UNION ALL SELECT min(g." ROWID ") FROM ");
        put_ident(&b, pname);
        put(&b, " AS g WHERE (");
        for (int j = 0; j < f->ncols; j++) {
            if (j) put(&b, " OR ");
            put_col(&b, "g", t->defs[f->cols[j]].name);
            put(&b, " IS NULL");
        }
        put(&b, ") AND NOT (");
        for (int j = 0; j < f->ncols; j++) {
            if (j) put(&b, " AND ");
            put_col(&b, "g", t->defs[f->cols[j]].name);
            put(&b, " IS NULL");
        }
        put(&b, ")");
    }
    attu_result *res = run_sql(s, &b, err);
    free(b.p);
    if (!res) return -1;
    for (size_t i = 0; i < res->nrows; i++) {
        if (attu_column_is_null(res->cols[0], i)) continue;
        int64_t v = ((const int64_t *)res->cols[0]->data)[i];
        if (*row < 0 || v < *row) { *row = v; *mixed = i > 0; }
    }
    attu_result_free(res);
    return 0;
}

static int orphan_error(const attu_table *g, const attu_fkey *f, const char *table, size_t r, bool mixed,
                        attu_error *err) {
    attu_error_set(err, "23503", 0, "insert or update on table \"%s\" violates foreign key constraint \"%s\"", table,
                   f->name);
    attu_error_set_object(err, table, NULL, f->name);
    if (mixed) {
        attu_error_set_detail(err, "MATCH FULL does not allow mixing of null and nonnull key values.");
        return -1;
    }
    fbuf d = { 0 };
    put_key(&d, g, f->cols, f->ncols, r);
    put(&d, " is not present in table \"");
    put(&d, f->ref_table);
    put(&d, "\".");
    if (!d.oom) attu_error_set_detail(err, "%s", d.p);
    free(d.p);
    return -1;
}

/* Whether f references exactly u's columns of table. */
static bool fkey_on_key(const attu_fkey *f, const char *table, const attu_unique *u) {
    /* (a DEFERRABLE key never serves one: db_fkey_define refuses it) */
    if (u->deferrable || strcmp(f->ref_table, table) || f->ncols != u->ncols) return false;
    for (int q = 0; q < u->ncols; q++) {
        bool in = false;
        for (int r = 0; r < u->ncols; r++) in |= f->ref_cols[q] == u->cols[r];
        if (!in) return false;
    }
    return true;
}

/* Whether a value of type a can probe a key set of type b's values: the
 * same type (text and varchar alike: both compare and hash their bytes). */
static bool same_key_type(attu_type a, attu_type b) {
    if (attu_type_equal(a, b)) return true;
    return a.id == ATTU_TYPE_TEXT && b.id == ATTU_TYPE_TEXT && !attu_type_is_array(a) && !attu_type_is_array(b) &&
           !attu_type_is_bpchar(a) && !attu_type_is_bpchar(b);
}

/* first_orphan through the referenced key's index (db_unique_key_set):
 * each of t's rows rows[0..n) is looked up in the hash set of the
 * parent's keys, O(the rows) however large the parent. *row: the index
 * in rows of the first that fails, -1 when none. 1 when the index does
 * not serve (a parent this statement changed, key types that differ, the
 * index off): the query does it then. */
static int index_orphan(attu_session *s, const db_fkey_txn *x, const attu_table *t, const attu_fkey *f,
                        const size_t *rows, size_t n, int64_t *row, bool *mixed) {
    attu_table *p = attu_catalog_lookup(db_cat(s), f->ref_table);
    if (!p || p->unavailable) return 1;
    for (int i = 0; x && i < x->nswaps; i++)
        if (x->swaps[i].cur == p) return 1;
    int nu = 0;
    const attu_unique *us = attu_catalog_uniques(db_cat(s), p->name, &nu), *u = NULL;
    for (int k = 0; k < nu && !u; k++) if (fkey_on_key(f, p->name, &us[k])) u = &us[k];
    if (!u) return 1;
    for (int j = 0; j < f->ncols; j++)
        if (!same_key_type(t->defs[f->cols[j]].type, p->defs[f->ref_cols[j]].type)) return 1;
    attu_key_set *ks = db_unique_key_set(p, u);
    if (!ks) return 1;
    /* the probe: p's layout, the child's key columns where p's are */
    attu_column **cols = malloc(sizeof *cols * ((size_t)p->ncols + 1));
    if (!cols) return 1;
    for (int i = 0; i < p->ncols; i++) cols[i] = p->cols[i];
    for (int j = 0; j < f->ncols; j++) cols[f->ref_cols[j]] = t->cols[f->cols[j]];
    /* (built field by field, not copied from *p: a query may attach a
     * set to p, or count a lookup of it, beside this check) */
    attu_table probe;
    memset(&probe, 0, sizeof probe);
    probe.ncols = p->ncols;
    probe.defs = p->defs;
    probe.cols = cols;
    probe.nrows = t->nrows;
    attu_key_rows in_p = { p, 0, NULL };
    *row = -1;
    *mixed = false;
    for (size_t i = 0; i < n && *row < 0; i++) {
        size_t r = rows[i];
        int nulls = 0;
        for (int j = 0; j < f->ncols; j++) nulls += attu_column_is_null(t->cols[f->cols[j]], r);
        if (nulls) {
            if (f->match == ATTU_FK_MATCH_FULL && nulls < f->ncols) { *row = (int64_t)i; *mixed = true; }
            continue;
        }
        uint64_t h;
        attu_key_hash(&probe, u->cols, u->ncols, r, &h);
        if (attu_key_set_find(ks, h, &in_p, &probe, r) < 0) *row = (int64_t)i;
    }
    free(cols);
    return 0;
}

/* Whether row r's values over cols differ between a and b (NULL counts). */
static bool values_changed(const attu_table *a, const attu_table *b, const int *cols, int n, size_t r) {
    for (int j = 0; j < n; j++) {
        bool na = attu_column_is_null(a->cols[cols[j]], r), nb = attu_column_is_null(b->cols[cols[j]], r);
        if (na != nb || (!na && !attu_key_equal(a, r, b, r, &cols[j], 1))) return true;
    }
    return false;
}

/* t's new rows (>= before->nrows) and changed ones (changed NULL: none;
 * t in the catalog for its name) against t's foreign keys, each over the
 * rows that are new or changed its key: 23503 for the first row that
 * fails one, the constraint defined first on a tie. */
static int check_child_rows(attu_session *s, db_fkey_txn *x, const attu_table *before, const attu_table *t,
                            const uint8_t *changed, attu_error *err) {
    int nf = 0;
    const attu_fkey *fs = attu_catalog_fkeys(db_cat(s), t->name, &nf);
    if (!nf) return 0;
    size_t *rows = malloc(sizeof *rows * (t->nrows + 1));
    if (!rows) return attu_error_oom(err);
    int64_t best = -1;
    int which = -1;
    bool best_mixed = false;
    int rc = 0;
    for (int k = 0; k < nf && !rc; k++) {
        size_t n = 0;
        for (size_t r = 0; r < t->nrows; r++) {
            if (best >= 0 && r >= (size_t)best) break;   /* (a later constraint wins only with an earlier row) */
            bool in = r >= before->nrows ? !changed || changed[r]
                                         : changed && changed[r] && values_changed(before, t, fs[k].cols, fs[k].ncols, r);
            if (in) rows[n++] = r;
        }
        if (!n) continue;
        /* a deferred foreign key checks them later (db_defer.c) */
        if (db_defer_is_deferred(s, &fs[k])) {
            if (db_defer_queue(s, 'c', &fs[k], t, rows, n, err)) rc = -1;
            continue;
        }
        int64_t r;
        bool mixed;
        int ix = index_orphan(s, x, t, &fs[k], rows, n, &r, &mixed);
        if (ix == 0) {
            if (r >= 0 && (best < 0 || (int64_t)rows[r] < best)) {
                best = (int64_t)rows[r];
                which = k;
                best_mixed = mixed;
            }
            continue;
        }
        char pname[64];
        snprintf(pname, sizeof pname, "\001fk_probe%d", x->serial++);
        attu_table *g = temp_rows(s, t, rows, n, pname, err);
        if (!g) { rc = -1; break; }
        if (first_orphan(s, t, &fs[k], pname, &r, &mixed, err)) rc = -1;
        else if (r >= 0 && (best < 0 || (int64_t)rows[r] < best)) {
            best = (int64_t)rows[r];   /* (the probe's row r is t's rows[r]) */
            which = k;
            best_mixed = mixed;
        }
        temp_drop(s, pname);
    }
    if (!rc && best >= 0) rc = orphan_error(t, &fs[which], t->name, (size_t)best, best_mixed, err);
    free(rows);
    return rc;
}

int db_fkey_validate(attu_session *s, attu_table *t, const attu_fkey *f, attu_error *err) {
    return t->nrows ? check_existing(s, t, f, err) : 0;
}

/* ALTER TABLE ... ADD FOREIGN KEY over the rows t holds (t, or the table
 * being defined, in the catalog for its name meanwhile). */
static int check_existing(attu_session *s, attu_table *t, const attu_fkey *f, attu_error *err) {
    attu_table *old = attu_catalog_lookup(db_cat(s), t->name);
    if (old != t) {
        if (old) attu_catalog_replace(db_cat(s), t);
        else if (attu_catalog_add(db_cat(s), t, err)) return -1;
    }
    size_t *rows = malloc(sizeof *rows * (t->nrows + 1));
    int rc = -1;
    if (!rows) { attu_error_oom(err); goto out; }
    for (size_t r = 0; r < t->nrows; r++) rows[r] = r;
    attu_table *g = temp_rows(s, t, rows, t->nrows, "\001fk_existing", err);
    if (!g) goto out;
    int64_t r;
    bool mixed;
    rc = first_orphan(s, t, f, "\001fk_existing", &r, &mixed, err);
    if (!rc && r >= 0) rc = orphan_error(g, f, t->name, (size_t)r, mixed, err);
    temp_drop(s, "\001fk_existing");
out:
    free(rows);
    if (old != t) {
        if (old) attu_catalog_replace(db_cat(s), old);
        else attu_catalog_remove(db_cat(s), t->name, true, NULL);
    }
    return rc;
}

/* 42804 unless f's key column j of child can reference parent's. */
static int types_fit(const attu_table *child, const attu_table *parent, const attu_fkey *f, attu_error *err) {
    for (int j = 0; j < f->ncols; j++) {
        attu_type ft = child->defs[f->cols[j]].type, pt = parent->defs[f->ref_cols[j]].type;
        if (comparable(ft, pt)) continue;
        char a1[96], a2[96];
        attu_type_name(ft, a1, sizeof a1);
        attu_type_name(pt, a2, sizeof a2);
        attu_error_set(err, ATTU_SQLSTATE_DATATYPE_MISMATCH, 0, "foreign key constraint \"%s\" cannot be implemented", f->name);
        attu_error_set_detail(err, "Key columns \"%s\" and \"%s\" are of incompatible types: %s and %s.",
                              child->defs[f->cols[j]].name, parent->defs[f->ref_cols[j]].name, a1, a2);
        return -1;
    }
    return 0;
}

static bool any_converted(const int *cols, int n, const bool *converted) {
    for (int j = 0; j < n; j++) if (converted[cols[j]]) return true;
    return false;
}

int db_fkey_after_type_change(attu_session *s, attu_table *t, const bool *converted, const int *map, int nold,
                              const attu_fkey *own, int nown, attu_error *err) {
    bool any = false;
    for (int i = 0; i < t->ncols; i++) any |= converted[i];
    if (!any) return 0;
    attu_table *old = attu_catalog_lookup(db_cat(s), t->name);
    if (!old) return 0;
    attu_catalog_replace(db_cat(s), t);   /* (t stands for the table meanwhile) */
    int rc = 0;
    for (int k = 0; k < nown && !rc; k++) {
        bool self = !strcmp(own[k].ref_table, t->name);
        if (!any_converted(own[k].cols, own[k].ncols, converted) &&
            !(self && any_converted(own[k].ref_cols, own[k].ncols, converted)))
            continue;
        const attu_table *p = attu_catalog_lookup(db_cat(s), own[k].ref_table);
        if (p && (types_fit(t, p, &own[k], err) || check_existing(s, t, &own[k], err))) rc = -1;
    }
    for (size_t i = 0; i < attu_catalog_count(db_cat(s)) && !rc; i++) {
        attu_table *c = attu_catalog_at(db_cat(s), i);
        if (c == t || c->name[0] == '\001') continue;
        int nf = 0;
        const attu_fkey *fs = attu_catalog_fkeys(db_cat(s), c->name, &nf);
        for (int k = 0; k < nf && !rc; k++) {
            if (strcmp(fs[k].ref_table, t->name)) continue;
            attu_fkey f = fs[k];
            bool whole = true;
            for (int q = 0; q < f.ncols && whole; q++) {
                f.ref_cols[q] = f.ref_cols[q] < nold ? map[f.ref_cols[q]] : -1;
                whole = f.ref_cols[q] >= 0;
            }
            if (!whole || !any_converted(f.ref_cols, f.ncols, converted)) continue;   /* (a dropped one: follow_columns') */
            if (types_fit(c, t, &f, err) || check_existing(s, c, &f, err)) rc = -1;
        }
    }
    attu_catalog_replace(db_cat(s), old);
    return rc;
}

/* ---- the parent's rows -------------------------------------------------------------------- */

static int apply_change(attu_session *s, db_fkey_txn *x, attu_table *before, attu_table *after, const uint8_t *changed,
                        const uint8_t *keep, int depth, attu_error *err);

/* The rows of c (the catalog's version) that hold a key of keys (a
 * gathered table named kname) over f: their rowids, then (action set)
 * the values their key columns take, each cast to its column's type:
 * CASCADE the new key (nname: the parent's rows after, in keys' order),
 * SET NULL a NULL, SET DEFAULT the column's DEFAULT (NULL without one). */
static attu_result *matching_children(attu_session *s, const attu_table *c, const attu_fkey *f,
                                      const attu_table *keys, const char *kname, const char *nname, char action,
                                      const int *setk, int nset, attu_error *err) {
    fbuf b = { 0 };
    char tn[128];
    put(&b, "SELECT c." ROWID);
    if (action != 0) {
        for (int i = 0; i < nset; i++) {
            int j = setk[i];
            const attu_column_def *def = &c->defs[f->cols[j]];
            put(&b, ", CAST(");
            if (action == ATTU_FK_CASCADE) put_col(&b, "n", keys->defs[f->ref_cols[j]].name);
            else if (action == ATTU_FK_SET_NULL) put(&b, "NULL");
            else {
                /* (a domain column without its own: the domain's, as
                 * PostgreSQL's UPDATE ... SET col = DEFAULT takes it) */
                char *dflt = db_column_default(s, c, f->cols[j], err);
                if (!dflt && err->set) { free(b.p); return NULL; }
                put(&b, "(");
                put(&b, dflt ? dflt : "NULL");
                put(&b, ")");
                free(dflt);
            }
            put(&b, " AS ");
            put(&b, type_sql(def->type, tn, sizeof tn));
            put(&b, ")");
        }
    }
    put(&b, " FROM ");
    put_ident(&b, c->name);
    put(&b, " AS c JOIN ");
    put_ident(&b, kname);
    put(&b, " AS k ON ");
    put_key_eq(&b, f->ncols, "k", keys, f->ref_cols, "c", c, f->cols);
    if (action == ATTU_FK_CASCADE && nname) {
        put(&b, " JOIN ");
        put_ident(&b, nname);
        put(&b, " AS n ON n." ROWID " = k." ROWID);
    }
    attu_result *res = run_sql(s, &b, err);
    free(b.p);
    return res;
}

/* The first of the parent's old keys (k, a gathered copy of its rows
 * in the catalog under kname) that a row of the child cname (as the
 * catalog has it now) still holds and, for NO ACTION, that no parent row
 * holds again: 23503 then. */
static int held_keys(attu_session *s, const attu_fkey *f, const char *cname, const attu_table *k, const char *kname,
                     char action, attu_error *err) {
    const attu_table *c = attu_catalog_lookup(db_cat(s), cname);
    const attu_table *par = attu_catalog_lookup(db_cat(s), f->ref_table);
    if (!c || !par) return 0;
    fbuf b = { 0 };
    put(&b, "SELECT min(k." ROWID ") FROM ");
    put_ident(&b, kname);
    put(&b, " AS k JOIN ");
    put_ident(&b, c->name);
    put(&b, " AS c ON ");
    put_key_eq(&b, f->ncols, "c", c, f->cols, "k", k, f->ref_cols);
    if (action == ATTU_FK_NO_ACTION) {
        put(&b, " LEFT JOIN ");
        put_ident(&b, par->name);
        put(&b, " AS p ON ");
        put_key_eq(&b, f->ncols, "p", par, f->ref_cols, "k", k, f->ref_cols);
        put(&b, " WHERE ");
        put_col(&b, "p", par->defs[f->ref_cols[0]].name);
        put(&b, " IS NULL");
    }
    attu_result *res = run_sql(s, &b, err);
    free(b.p);
    int rc = res ? 0 : -1;
    int64_t r = res && res->nrows && !attu_column_is_null(res->cols[0], 0) ? ((const int64_t *)res->cols[0]->data)[0] : -1;
    attu_result_free(res);
    if (r >= 0) {
        attu_error_set(err, "23503", 0, "update or delete on table \"%s\" violates foreign key constraint \"%s\" on table \"%s\"",
                       f->ref_table, f->name, cname);
        attu_error_set_object(err, cname, NULL, f->name);   /* the referencing table, as PostgreSQL */
        fbuf d = { 0 };
        put_key(&d, k, f->ref_cols, f->ncols, (size_t)r);
        put(&d, " is still referenced from table \"");
        put(&d, cname);
        put(&d, "\".");
        if (!d.oom) attu_error_set_detail(err, "%s", d.p);
        free(d.p);
        rc = -1;
    }
    return rc;
}

/* NO ACTION / RESTRICT of foreign key f of table cname over the
 * parent's rows that lost their keys (before's rows rows[0..n)): 23503
 * for the first old key that a row of the child still holds (held_keys).
 * It runs in its turn among the foreign keys' actions, as PostgreSQL's
 * triggers do, in the order the constraints were made. */
static int held(attu_session *s, db_fkey_txn *x, const attu_fkey *f, const char *cname, const attu_table *before,
                const size_t *rows, size_t n, char action, attu_error *err) {
    if (!attu_catalog_lookup(db_cat(s), cname) || !attu_catalog_lookup(db_cat(s), f->ref_table)) return 0;
    char kname[64];
    snprintf(kname, sizeof kname, "\001fk_held%d", x->serial++);
    attu_table *k = temp_rows(s, before, rows, n, kname, err);
    if (!k) return -1;
    int rc = held_keys(s, f, cname, k, kname, action, err);
    temp_drop(s, kname);
    return rc;
}

/* A deferred check come due (db_defer.c): g, in the catalog under gname,
 * the rows queued. 'c': the referencing rows (of cname's layout) that a
 * row of cname still holds the key of and whose key has no referenced
 * row (MATCH FULL: or mixes NULLs and values); 'p': the referenced keys
 * that went (held_keys, NO ACTION). */
int db_fkey_check_deferred(attu_session *s, const attu_fkey *f, const char *cname, char kind, const char *gname,
                           const attu_table *g, attu_error *err) {
    if (kind == 'p') return held_keys(s, f, cname, g, gname, ATTU_FK_NO_ACTION, err);
    const attu_table *c = attu_catalog_lookup(db_cat(s), cname);
    const attu_table *p = attu_catalog_lookup(db_cat(s), f->ref_table);
    if (!c || !p) return 0;
    fbuf b = { 0 };
    put(&b, "SELECT min(g." ROWID ") FROM ");
    put_ident(&b, gname);
    put(&b, " AS g JOIN (SELECT DISTINCT ");
    for (int j = 0; j < f->ncols; j++) {
        if (j) put(&b, ", ");
        put_col(&b, "l", c->defs[f->cols[j]].name);
    }
    put(&b, " FROM ");
    put_ident(&b, c->name);
    put(&b, " AS l) AS l ON ");
    put_key_eq(&b, f->ncols, "l", c, f->cols, "g", g, f->cols);
    put(&b, " LEFT JOIN ");
    put_ident(&b, p->name);
    put(&b, " AS p ON ");
    put_key_eq(&b, f->ncols, "p", p, f->ref_cols, "g", g, f->cols);
    put(&b, " WHERE ");
    put_col(&b, "p", p->defs[f->ref_cols[0]].name);
    put(&b, " IS NULL");
    if (f->match == ATTU_FK_MATCH_FULL && f->ncols > 1) {
        /* (a key that mixes NULLs and values, a row of c still holding it) */
        put(&b, " UNION ALL SELECT min(g." ROWID ") FROM ");
        put_ident(&b, gname);
        put(&b, " AS g WHERE (");
        for (int j = 0; j < f->ncols; j++) {
            if (j) put(&b, " OR ");
            put_col(&b, "g", g->defs[f->cols[j]].name);
            put(&b, " IS NULL");
        }
        put(&b, ") AND NOT (");
        for (int j = 0; j < f->ncols; j++) {
            if (j) put(&b, " AND ");
            put_col(&b, "g", g->defs[f->cols[j]].name);
            put(&b, " IS NULL");
        }
        put(&b, ") AND EXISTS (SELECT 1 FROM ");
        put_ident(&b, c->name);
        put(&b, " AS l WHERE ");
        for (int j = 0; j < f->ncols; j++) {
            if (j) put(&b, " AND ");
            put_col(&b, "l", c->defs[f->cols[j]].name);
            put(&b, " IS NOT DISTINCT FROM ");
            put_col(&b, "g", g->defs[f->cols[j]].name);
        }
        put(&b, ")");
    }
    attu_result *res = run_sql(s, &b, err);
    free(b.p);
    if (!res) return -1;
    int64_t row = -1;
    bool mixed = false;
    for (size_t i = 0; i < res->nrows; i++) {
        if (attu_column_is_null(res->cols[0], i)) continue;
        int64_t v = ((const int64_t *)res->cols[0]->data)[i];
        if (row < 0 || v < row) { row = v; mixed = i > 0; }
    }
    attu_result_free(res);
    return row >= 0 ? orphan_error(g, f, cname, (size_t)row, mixed, err) : 0;
}

/* One foreign key f of table cname over the parent's rows that lost
 * their key: old (before's rows rows[0..n)), new (after's same rows: a
 * changed key; NULL for removed rows). */
static int act(attu_session *s, db_fkey_txn *x, const attu_fkey *f, const char *cname, attu_table *before,
               attu_table *after, const size_t *rows, size_t n, bool deleting, int depth, attu_error *err) {
    char action = deleting ? f->on_delete : f->on_update;
    /* (NO ACTION's check may wait: db_defer.c; RESTRICT's waits only for
     * the end of a statement with data-modifying WITH queries, whose
     * parts all run first, as PostgreSQL's RI triggers fire after the
     * whole query) */
    bool waits = action == ATTU_FK_NO_ACTION || (action == ATTU_FK_RESTRICT && s->fk_at_statement_end);
    if (waits && db_defer_is_deferred(s, f)) return db_defer_queue(s, 'p', f, before, rows, n, err);
    if (action == ATTU_FK_NO_ACTION || action == ATTU_FK_RESTRICT) return held(s, x, f, cname, before, rows, n, action, err);
    if (depth > MAX_DEPTH)
        return attu_error_set(err, "54001", 0, "stack depth limit exceeded");
    char kname[64], nname[64];
    snprintf(kname, sizeof kname, "\001fk_old%d", x->serial++);
    snprintf(nname, sizeof nname, "\001fk_new%d", x->serial++);
    attu_table *k = temp_rows(s, before, rows, n, kname, err);
    if (!k) return -1;
    attu_table *nk = NULL;
    if (!deleting && action == ATTU_FK_CASCADE && !(nk = temp_rows(s, after, rows, n, nname, err))) {
        temp_drop(s, kname);
        return -1;
    }
    attu_table *c = attu_catalog_lookup(db_cat(s), cname);
    bool removing = deleting && action == ATTU_FK_CASCADE;
    /* the key positions the action sets: all, or ON DELETE SET NULL /
     * SET DEFAULT's list */
    int setk[ATTU_INDEX_MAX_KEYS], nset = 0, setcols[ATTU_INDEX_MAX_KEYS];
    if (deleting && f->ndelete_set)
        for (int j = 0; j < f->ndelete_set; j++) setk[nset++] = f->delete_set[j];
    else
        for (int j = 0; j < f->ncols; j++) setk[nset++] = j;
    for (int j = 0; j < nset; j++) setcols[j] = f->cols[setk[j]];
    attu_result *res = c ? matching_children(s, c, f, k, kname, nk ? nname : NULL, removing ? 0 : action, setk, nset,
                                             err) : NULL;
    temp_drop(s, kname);
    if (nk) temp_drop(s, nname);
    if (!res) return c ? -1 : attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "table \"%s\" is missing", cname);
    int rc = 0;
    if (!res->nrows) { attu_result_free(res); return 0; }
    const int64_t *rid = res->cols[0]->data;
    attu_table *next = NULL;
    uint8_t *mask = calloc(c->nrows + 1, 1);
    int64_t *src = NULL;
    if (!mask) { attu_result_free(res); return attu_error_oom(err); }
    if (removing) {
        for (size_t r = 0; r < c->nrows; r++) mask[r] = 1;
        for (size_t i = 0; i < res->nrows; i++) mask[rid[i]] = 0;
        next = attu_table_keep_rows(c, mask, err);
    } else {
        if (!(src = malloc(sizeof *src * (c->nrows + 1)))) { rc = attu_error_oom(err); goto out; }
        for (size_t r = 0; r < c->nrows; r++) src[r] = -1;
        for (size_t i = 0; i < res->nrows; i++) { src[rid[i]] = (int64_t)i; mask[rid[i]] = 1; }
        next = attu_table_update_rows(c, src, nset, setcols, res->cols + 1, err);
        /* the change is a statement's change of c: its CHECK and UNIQUE
         * constraints (c is still the catalog's) */
        if (next && (db_generated_fill(s, &next, 0, mask, err) || db_check_rows(s, next, 0, mask, err) ||
                     db_unique_check(s, next, 0, mask, err))) {
            attu_table_free(next);
            next = NULL;
        }
    }
    if (!next) { rc = -1; goto out; }
    if (install(x, s, next, err)) { attu_table_free(next); rc = -1; goto out; }
    /* c is no longer the catalog's, but the statement's (install keeps the
     * first version of each table; a later one is freed at the end) */
    rc = apply_change(s, x, c, next, removing ? NULL : mask, removing ? mask : NULL, depth + 1, err);
    /* a row set to a default equal to the key it lost was not checked
     * (its key did not change): PostgreSQL runs the NO ACTION check then */
    if (!rc && action == ATTU_FK_SET_DEFAULT) rc = held(s, x, f, cname, before, rows, n, ATTU_FK_NO_ACTION, err);
out:
    free(mask);
    free(src);
    attu_result_free(res);
    return rc;
}

/* Whether row r's key over cols differs between a and b (same columns);
 * a key with a NULL in a (never referenced) counts as unchanged. */
static bool key_changed(const attu_table *a, const attu_table *b, const int *cols, int n, size_t r) {
    for (int j = 0; j < n; j++) if (attu_column_is_null(a->cols[cols[j]], r)) return false;
    for (int j = 0; j < n; j++) {
        if (attu_column_is_null(b->cols[cols[j]], r)) return true;
        if (!attu_key_equal(a, r, b, r, &cols[j], 1)) return true;
    }
    return false;
}

/* A foreign key that references a table, and its table. */
typedef struct referrer {
    attu_fkey f;
    char      child[ATTU_NAME_MAX + 1];
} referrer;

static int by_made(const void *a, const void *b) {
    const referrer *x = a, *y = b;
    if (x->f.made != y->f.made) return x->f.made < y->f.made ? -1 : 1;
    int c = strcmp(x->child, y->child);
    return c ? c : strcmp(x->f.name, y->f.name);
}

/* The foreign keys that reference table name, in the order they were
 * made: *out (malloc'd), their count, -1 when out of memory. */
static int referrers(const attu_catalog *cat, const char *name, referrer **out) {
    int n = 0, cap = 0;
    referrer *v = NULL;
    for (size_t i = 0; i < attu_catalog_count(cat); i++) {
        const attu_table *c = attu_catalog_at(cat, i);
        if (c->name[0] == '\001') continue;
        int nf = 0;
        const attu_fkey *fs = attu_catalog_fkeys(cat, c->name, &nf);
        for (int k = 0; k < nf; k++) {
            if (strcmp(fs[k].ref_table, name)) continue;
            if (n == cap) {
                cap = cap ? cap * 2 : 8;
                referrer *g = realloc(v, sizeof *g * (size_t)cap);
                if (!g) { free(v); return -1; }
                v = g;
            }
            v[n].f = fs[k];
            snprintf(v[n].child, sizeof v[n].child, "%s", c->name);
            n++;
        }
    }
    if (n > 1) qsort(v, (size_t)n, sizeof *v, by_made);
    *out = v;
    return n;
}

/* before -> after, the catalog holding after: after's new or changed
 * rows checked against its own foreign keys, then the actions of the
 * foreign keys that reference it over the rows that lost their keys. */
static int apply_change(attu_session *s, db_fkey_txn *x, attu_table *before, attu_table *after, const uint8_t *changed,
                        const uint8_t *keep, int depth, attu_error *err) {
    /* the child side: the rows that are new or changed their keys */
    if (!keep && check_child_rows(s, x, before, after, changed, err)) return -1;
    /* the parent side: every foreign key that references the table, in
     * the order they were made (copied: the actions change the catalog) */
    referrer *refs = NULL;
    int nrefs = referrers(db_cat(s), after->name, &refs);
    if (nrefs < 0) return attu_error_oom(err);
    size_t *rows = malloc(sizeof *rows * (before->nrows + 1));
    if (!rows) { free(refs); return attu_error_oom(err); }
    int rc = 0;
    for (int k = 0; k < nrefs && !rc; k++) {
        const attu_fkey *f = &refs[k].f;
        size_t n = 0;
        for (size_t r = 0; r < before->nrows; r++) {
            bool lost;
            if (keep) {
                lost = !keep[r];
                for (int j = 0; j < f->ncols && lost; j++)
                    if (attu_column_is_null(before->cols[f->ref_cols[j]], r)) lost = false;
            } else {
                lost = changed && changed[r] && key_changed(before, after, f->ref_cols, f->ncols, r);
            }
            if (lost) rows[n++] = r;
        }
        if (n && act(s, x, f, refs[k].child, before, after, rows, n, keep != NULL, depth, err)) rc = -1;
    }
    free(rows);
    free(refs);
    return rc;
}

/* Whether any foreign key has the table on either side. */
static bool involved(const attu_catalog *cat, const char *name) {
    int nf = 0;
    if (attu_catalog_fkeys(cat, name, &nf)) return true;
    for (size_t i = 0; i < attu_catalog_count(cat); i++) {
        const attu_fkey *f = attu_catalog_fkeys(cat, attu_catalog_at(cat, i)->name, &nf);
        for (int k = 0; k < nf; k++) if (!strcmp(f[k].ref_table, name)) return true;
    }
    return false;
}

int db_fkey_statement(attu_session *s, attu_table **tp, size_t first, const uint8_t *changed, const uint8_t *keep,
                      bool *replaced, db_fkey_txn **txn, attu_error *err) {
    attu_table *t = *tp;
    *replaced = false;
    *txn = NULL;
    if (!involved(db_cat(s), t->name)) return 0;
    attu_table *old = attu_catalog_lookup(db_cat(s), t->name);
    if (!old) return 0;
    db_fkey_txn *x = calloc(1, sizeof *x);
    if (!x) return attu_error_oom(err);
    int rc = install(x, s, t, err);
    if (!rc) {
        if (!keep && !changed && first != old->nrows)
            rc = attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "foreign key check of an unexpected change");
        else rc = apply_change(s, x, old, t, changed, keep, 0, err);
    }
    if (rc) {
        restore(x, s, t);
        txn_free(x, t);
        return -1;
    }
    /* the statement's table: its final version goes back to the caller,
     * the catalog keeps the old one (swaps[0]) */
    attu_table *fin = x->swaps[0].cur;
    attu_catalog_replace(db_cat(s), old);
    if (fin != t) {   /* (t is among the garbage then) */
        *tp = fin;
        *replaced = true;
    }
    memmove(x->swaps, x->swaps + 1, sizeof *x->swaps * (size_t)(x->nswaps - 1));
    x->nswaps--;
    if (!x->nswaps) { txn_free(x, NULL); return 0; }
    *txn = x;
    return 0;
}

int db_fkey_commit(attu_session *s, db_fkey_txn *x, attu_error *err) {
    if (!x) return 0;
    int rc = 0;
    for (int i = 0; i < x->nswaps && !rc; i++) rc = db_save_table(s, x->swaps[i].cur, err);
    for (int i = 0; i < x->nswaps; i++) attu_table_free(x->swaps[i].old);
    x->nswaps = 0;
    txn_free(x, NULL);
    return rc;
}

void db_fkey_abort(attu_session *s, db_fkey_txn *x) {
    if (!x) return;
    restore(x, s, NULL);
    txn_free(x, NULL);
}

/* ---- TRUNCATE, DROP, ALTER ------------------------------------------------------------------- */

static bool listed(const char *const *names, int n, const char *name) {
    for (int i = 0; i < n; i++) if (!strcmp(names[i], name)) return true;
    return false;
}

int db_fkey_truncate(attu_session *s, const char *const *names, int n, bool cascade, char ***more, int *nmore,
                     attu_error *err) {
    *more = NULL;
    *nmore = 0;
    const attu_catalog *cat = db_cat(s);
    /* the tables named, then (CASCADE) every table referencing one, to a fixed point */
    int cap = n + (int)attu_catalog_count(cat) + 1, all_n = 0;
    const char **all = calloc((size_t)cap, sizeof *all);
    if (!all) return attu_error_oom(err);
    for (int i = 0; i < n; i++) all[all_n++] = names[i];
    for (int i = 0; i < all_n; i++) {
        for (size_t j = 0; j < attu_catalog_count(cat); j++) {
            const attu_table *c = attu_catalog_at(cat, j);
            int nf = 0;
            const attu_fkey *fs = attu_catalog_fkeys(cat, c->name, &nf);
            for (int k = 0; k < nf; k++) {
                if (strcmp(fs[k].ref_table, all[i]) || listed(all, all_n, c->name)) continue;
                if (!cascade) {
                    attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                   "cannot truncate a table referenced in a foreign key constraint");
                    attu_error_set_detail(err, "Table \"%s\" references \"%s\".", c->name, all[i]);
                    char hint[200];
                    snprintf(hint, sizeof hint, "Truncate table \"%s\" at the same time, or use TRUNCATE ... CASCADE.",
                             c->name);
                    attu_error_set_hint(err, hint);
                    free(all);
                    return -1;
                }
                all[all_n++] = c->name;
            }
        }
    }
    int rc = 0;
    if (all_n > n) {
        char **m = calloc((size_t)(all_n - n), sizeof *m);
        if (!m) rc = attu_error_oom(err);
        for (int i = n; m && i < all_n; i++)
            if (!(m[i - n] = strdup(all[i]))) { rc = attu_error_oom(err); break; }
        if (!rc) { *more = m; *nmore = all_n - n; }
        else if (m) { for (int i = 0; i < all_n - n; i++) free(m[i]); free(m); }
    }
    free(all);
    return rc;
}

/* Saves table name with its constraints as the catalog has them. */
static int resave(attu_session *s, const char *name, attu_error *err) {
    const attu_table *t = attu_catalog_lookup(db_cat(s), name);
    return t ? db_save_table(s, t, err) : 0;
}

/* Removes foreign key k of table c (catalog and files). */
static int remove_fkey(attu_session *s, const char *c, int k, attu_error *err) {
    int nf = 0;
    const attu_fkey *fs = attu_catalog_fkeys(db_cat(s), c, &nf);
    attu_fkey *keep = calloc((size_t)nf + 1, sizeof *keep);
    if (!keep) return attu_error_oom(err);
    int m = 0;
    for (int i = 0; i < nf; i++) if (i != k) keep[m++] = fs[i];
    int rc = attu_catalog_set_fkeys(db_cat(s), c, keep, m, err);
    free(keep);
    return rc ? -1 : resave(s, c, err);
}

/* remove_fkey of key *k of table inside a loop over its keys: then the
 * keys are read again into *fs / *nf and *k steps back, so that the loop
 * goes on with the next one (the name is copied first: saving the table
 * replaces it, and its name with it). */
static int remove_fkey_in_loop(attu_session *s, const char *table, int *k, const attu_fkey **fs, int *nf,
                               attu_error *err) {
    char name[ATTU_NAME_MAX + 1];
    snprintf(name, sizeof name, "%s", table);
    if (remove_fkey(s, name, *k, err)) return -1;
    *fs = attu_catalog_fkeys(db_cat(s), name, nf);
    (*k)--;
    return 0;
}

int db_fkey_drop_tables(attu_session *s, const char *const *names, int n, bool cascade, char *notice,
                        size_t notice_cap, int *ndropped, attu_error *err) {
    *ndropped = 0;
    if (notice_cap) notice[0] = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t j = 0; j < attu_catalog_count(db_cat(s)); j++) {
            const attu_table *c = attu_catalog_at(db_cat(s), j);
            if (listed(names, n, c->name)) continue;
            int nf = 0;
            const attu_fkey *fs = attu_catalog_fkeys(db_cat(s), c->name, &nf);
            for (int k = 0; k < nf; k++) {
                if (!listed(names, n, fs[k].ref_table)) continue;
                if (pass == 0) {
                    if (!cascade) {
                        attu_error_set(err, "2BP01", 0, "cannot drop table %s because other objects depend on it",
                                       fs[k].ref_table);
                        attu_error_set_detail(err, "constraint %s on table %s depends on table %s", fs[k].name, c->name,
                                              fs[k].ref_table);
                        attu_error_set_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
                        return -1;
                    }
                    if (!*ndropped && notice_cap)
                        snprintf(notice, notice_cap, "drop cascades to constraint %s on table %s", fs[k].name, c->name);
                    (*ndropped)++;
                    continue;
                }
                if (remove_fkey_in_loop(s, c->name, &k, &fs, &nf, err)) return -1;
            }
        }
    }
    return 0;
}

int db_fkey_follow_rename(attu_session *s, const char *table, const char *to, attu_error *err) {
    for (size_t j = 0; j < attu_catalog_count(db_cat(s)); j++) {
        const attu_table *c = attu_catalog_at(db_cat(s), j);
        int nf = 0;
        const attu_fkey *fs = attu_catalog_fkeys(db_cat(s), c->name, &nf);
        bool any = false;
        for (int k = 0; k < nf; k++) any |= !strcmp(fs[k].ref_table, table);
        if (!any) continue;
        attu_fkey *copy = malloc(sizeof *copy * (size_t)nf);
        if (!copy) return attu_error_oom(err);
        memcpy(copy, fs, sizeof *copy * (size_t)nf);
        for (int k = 0; k < nf; k++)
            if (!strcmp(copy[k].ref_table, table)) snprintf(copy[k].ref_table, sizeof copy[k].ref_table, "%s", to);
        char cname[ATTU_NAME_MAX + 1];
        snprintf(cname, sizeof cname, "%s", c->name);
        int rc = attu_catalog_set_fkeys(db_cat(s), cname, copy, nf, err);
        free(copy);
        if (rc || resave(s, cname, err)) return -1;
    }
    return 0;
}

static int db_fkey_follow_columns_check(attu_session *s, const char *table, const int *map, int nold,
                                        attu_error *err);

int db_fkey_follow_columns(attu_session *s, const char *table, const int *map, int nold, bool cascade,
                           attu_error *err) {
    /* (the first pass only looks for the 2BP01, so that nothing changes then) */
    if (!cascade && db_fkey_follow_columns_check(s, table, map, nold, err)) return -1;
    for (size_t j = 0; j < attu_catalog_count(db_cat(s)); j++) {
        const attu_table *c = attu_catalog_at(db_cat(s), j);
        if (!strcmp(c->name, table)) continue;   /* (its own: the ALTER's) */
        int nf = 0;
        const attu_fkey *fs = attu_catalog_fkeys(db_cat(s), c->name, &nf);
        bool any = false;
        for (int k = 0; k < nf; k++) any |= !strcmp(fs[k].ref_table, table);
        if (!any) continue;
        attu_fkey *copy = malloc(sizeof *copy * (size_t)nf);
        if (!copy) return attu_error_oom(err);
        int m = 0;
        bool moved = false;
        for (int k = 0; k < nf; k++) {
            attu_fkey f = fs[k];
            bool whole = true;
            for (int q = 0; q < f.ncols && strcmp(f.ref_table, table) == 0; q++) {
                int to = f.ref_cols[q] < nold ? map[f.ref_cols[q]] : -1;
                if (to < 0) whole = false;
                else { moved |= to != f.ref_cols[q]; f.ref_cols[q] = to; }
            }
            if (!whole) {
                if (!cascade) {
                    const attu_table *p = attu_catalog_lookup(db_cat(s), table);
                    const char *col = "?";
                    for (int q = 0; p && q < f.ncols; q++)
                        if (f.ref_cols[q] < nold && map[f.ref_cols[q]] < 0 && f.ref_cols[q] < p->ncols)
                            col = p->defs[f.ref_cols[q]].name;
                    attu_error_set(err, "2BP01", 0, "cannot drop column %s of table %s because other objects depend on it",
                                   col, table);
                    attu_error_set_detail(err, "constraint %s on table %s depends on column %s of table %s", f.name,
                                          c->name, col, table);
                    attu_error_set_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
                    free(copy);
                    return -1;
                }
                moved = true;
                continue;
            }
            copy[m++] = f;
        }
        char cname[ATTU_NAME_MAX + 1];
        snprintf(cname, sizeof cname, "%s", c->name);
        int rc = moved ? attu_catalog_set_fkeys(db_cat(s), cname, copy, m, err) : 0;
        free(copy);
        if (rc || (moved && resave(s, cname, err))) return -1;
    }
    return 0;
}

int db_fkey_drop_on_key(attu_session *s, const char *table, const attu_unique *u, attu_error *err) {
    for (size_t j = 0; j < attu_catalog_count(db_cat(s)); j++) {
        const attu_table *c = attu_catalog_at(db_cat(s), j);
        if (!strcmp(c->name, table)) continue;   /* (its own: the ALTER's) */
        int nf = 0;
        const attu_fkey *fs = attu_catalog_fkeys(db_cat(s), c->name, &nf);
        for (int k = 0; k < nf; k++) {
            if (!fkey_on_key(&fs[k], table, u)) continue;
            if (remove_fkey_in_loop(s, c->name, &k, &fs, &nf, err)) return -1;
        }
    }
    return 0;
}

bool db_fkey_on_key(const attu_fkey *f, const char *table, const attu_unique *u) { return fkey_on_key(f, table, u); }

/* follow_columns' 2BP01: a foreign key of another table over a column
 * map drops. */
static int db_fkey_follow_columns_check(attu_session *s, const char *table, const int *map, int nold,
                                        attu_error *err) {
    for (size_t j = 0; j < attu_catalog_count(db_cat(s)); j++) {
        const attu_table *c = attu_catalog_at(db_cat(s), j);
        if (!strcmp(c->name, table)) continue;
        int nf = 0;
        const attu_fkey *fs = attu_catalog_fkeys(db_cat(s), c->name, &nf);
        for (int k = 0; k < nf; k++) {
            if (strcmp(fs[k].ref_table, table)) continue;
            for (int q = 0; q < fs[k].ncols; q++) {
                if (fs[k].ref_cols[q] < nold && map[fs[k].ref_cols[q]] >= 0) continue;
                const attu_table *p = attu_catalog_lookup(db_cat(s), table);
                const char *col = p && fs[k].ref_cols[q] < p->ncols ? p->defs[fs[k].ref_cols[q]].name : "?";
                attu_error_set(err, "2BP01", 0, "cannot drop column %s of table %s because other objects depend on it",
                               col, table);
                attu_error_set_detail(err, "constraint %s on table %s depends on column %s of table %s", fs[k].name,
                                      c->name, col, table);
                attu_error_set_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
                return -1;
            }
        }
    }
    return 0;
}

const attu_fkey *db_fkey_depends_on(const attu_catalog *cat, const char *table, const attu_unique *u,
                                    const char **owner) {
    if (u->deferrable) return NULL;   /* (no foreign key references one) */
    for (size_t j = 0; j < attu_catalog_count(cat); j++) {
        const attu_table *c = attu_catalog_at(cat, j);
        int nf = 0;
        const attu_fkey *fs = attu_catalog_fkeys(cat, c->name, &nf);
        for (int k = 0; k < nf; k++) {
            if (strcmp(fs[k].ref_table, table) || fs[k].ncols != u->ncols) continue;
            bool same = true;
            for (int q = 0; q < u->ncols && same; q++) {
                bool in = false;
                for (int r = 0; r < u->ncols; r++) in |= fs[k].ref_cols[q] == u->cols[r];
                same = in;
            }
            if (same) {
                if (owner) *owner = c->name;
                return &fs[k];
            }
        }
    }
    return NULL;
}

int db_fkey_remap_own(const attu_fkey *in, int n, const int *map, int nold, const char *table, attu_fkey **out,
                      int *nout, attu_error *err) {
    attu_fkey *o = calloc((size_t)n + 1, sizeof *o);
    if (!o) return attu_error_oom(err);
    int m = 0;
    for (int k = 0; k < n; k++) {
        attu_fkey f = in[k];
        bool whole = true;
        for (int q = 0; q < f.ncols && whole; q++) {
            int to = f.cols[q] < nold ? map[f.cols[q]] : -1;
            if (to < 0) whole = false;
            else f.cols[q] = to;
            /* (a foreign key of the table to itself: both sides move) */
            to = strcmp(f.ref_table, table) ? f.ref_cols[q] : f.ref_cols[q] < nold ? map[f.ref_cols[q]] : -1;
            if (to < 0) whole = false;
            else f.ref_cols[q] = to;
        }
        if (whole) o[m++] = f;
    }
    *out = o;
    *nout = m;
    return 0;
}
