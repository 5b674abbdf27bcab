/*
 * db_alter.c - ALTER TABLE.
 *
 *     ALTER TABLE [IF EXISTS] [ONLY] t action [, action ...]
 *     ALTER TABLE [IF EXISTS] t RENAME [COLUMN] a TO b
 *     ALTER TABLE [IF EXISTS] t RENAME TO u
 *
 * with the actions ADD [COLUMN] [IF NOT EXISTS] c type [NOT NULL | NULL |
 * DEFAULT e | PRIMARY KEY | UNIQUE | GENERATED ... AS IDENTITY], DROP
 * [COLUMN] [IF EXISTS] c [CASCADE | RESTRICT], ALTER [COLUMN] c SET
 * DEFAULT e / DROP DEFAULT / SET NOT NULL / DROP NOT NULL / [SET DATA]
 * TYPE type [USING e], ADD [CONSTRAINT n] PRIMARY KEY / UNIQUE (cols),
 * ADD [CONSTRAINT n] CHECK (e), ADD [CONSTRAINT n] FOREIGN KEY (cols)
 * REFERENCES t [(cols)] ..., DROP CONSTRAINT [IF EXISTS] n, and an
 * identity column's ALTER [COLUMN] c ADD GENERATED ... AS IDENTITY / SET
 * GENERATED ... / SET option / RESTART [[WITH] n] / DROP IDENTITY [IF
 * EXISTS] (the sequence changed at once, put back with the snapshot below
 * when the statement fails).
 *
 * What else holds the table comes along, as in PostgreSQL: the owned
 * sequences of serial and identity columns follow renames, go with their
 * column and are made by ADD COLUMN (numbering the rows); PRIMARY KEY /
 * UNIQUE constraints follow their columns and are checked over the final
 * rows when new or when a key column was converted; CHECK constraints
 * (db_check.c) go with a column they use, follow a rename (their text
 * rewritten) and are checked over the final rows when new or when a
 * column was converted; FOREIGN KEYs (db_fkey.c) follow their columns
 * on either side (a referenced column or key dropped is 2BP01 unless
 * CASCADE drops them), are checked again after a type change and over
 * the rows when new; views block a drop or
 * a type change of a column they use (found by binding the view with the
 * column hidden) and follow a rename by having their text rewritten
 * (db_view.c). A failed statement puts the sequences (a snapshot) and the
 * views back as they were.
 *
 * As every writer of a table (table.h), ALTER builds a new version beside
 * the old one under the write lock and swaps it in only once every action
 * has succeeded and the new version is saved: a statement of several
 * actions changes all or nothing, and a failed one leaves the table, its
 * DEFAULTs and its files as they were. The actions apply in written order
 * to a draft (the columns so far, each still the old table's or a new
 * one), in PostgreSQL's passes (pass_of: the drops first, then the type
 * changes, the new columns, SET NOT NULL, SET DEFAULT), so ADD c, ALTER c
 * SET NOT NULL or DROP a, ADD a work as in PostgreSQL. As there, a TYPE
 * conversion reads the rows as they were before the statement (its USING
 * sees the old values, of a column dropped by an earlier action too), and
 * the NOT NULL of every column is checked last, on the final rows (ALTER b
 * SET NOT NULL, ALTER b TYPE ... USING coalesce(b, 0) succeeds).
 *
 * Columns are built by the paths the other writers use, so that they land
 * the same on either backend: a new column's values (its DEFAULT, one
 * value evaluated once as INSERT evaluates a DEFAULT, or NULL) and a
 * converted column's values (the query SELECT rowid, USING-expression
 * FROM t, its result assigned to the new type as INSERT assigns,
 * attu_bind_coerce_assign, and run by the backend like any SELECT) are
 * appended to an empty column by db_append_rows, as CREATE TABLE AS
 * appends its rows. Columns that an ALTER leaves alone move to the new
 * version as they are (their device copies and key statistics with them:
 * their rows have not changed).
 *
 * Transactions: as for CREATE and DROP (docs/sql-reference.md), an ALTER
 * takes effect at once and ROLLBACK does not undo it. Prepared statements
 * are bound again at each EXECUTE (db_prepared.c), so one prepared before
 * an ALTER reads the new columns, fails as PostgreSQL does with 42703 on a
 * dropped one, and with "cached plan must not change result type" when
 * its result's columns changed.
 */
#include "db/db_internal.h"
#include "planner/lexer.h"
#include "db/db_generated.h"
#include "db/db_domain_check.h"
#include "engine/system_column.h"
#include "engine/comments.h"
#include "db/db_check.h"
#include "db/db_fkey.h"
#include "db/db_index.h"
#include "db/db_unique.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/storage.h"
#include "engine/view.h"
#include "engine/table_rewrite.h"
#include "planner/binder.h"
#include "planner/lower.h"
#include "planner/rewrite.h"

/* A column of the draft: the old table's column `from` (col borrowed), or
 * a new one (from < 0, col owned). orig: the old table's column it is
 * (whatever its values now), -1 for one this statement added. */
typedef struct draft_col {
    attu_column_def def;
    attu_column    *col;
    int             from, orig;
    char           *dflt;   /* DEFAULT text (malloc'd) or NULL */
    char            identity;   /* 'a' / 'd': an identity column's (0: none) */
} draft_col;

typedef struct draft {
    attu_session      *s;
    const char        *sql;
    const attu_table  *base;
    draft_col         *cols;
    int                n, cap;
    const attu_exec_callbacks *cb;
    /* the PRIMARY KEY / UNIQUE constraints ADD COLUMN made (draft column
     * indexes: the columns they name come after every drop) */
    attu_unique       *added;
    int                nadded, added_cap;
    /* the table's constraints DROP CONSTRAINT drops (catalog order) */
    bool              *dropped;
    int                ndropped;
    /* the CHECK constraints ADD CONSTRAINT and ADD COLUMN wrote (defined
     * over the final columns, db_check.c) and the table's that DROP
     * CONSTRAINT drops (catalog order) */
    const attu_ast_unique_def **new_checks;
    int                nnew_checks;
    bool              *checks_dropped;
    int                nchecks_dropped;
    /* the FOREIGN KEYs ADD wrote (defined over the final columns,
     * db_fkey.c) and the table's that DROP CONSTRAINT drops */
    const attu_ast_unique_def **new_fkeys;
    int                nnew_fkeys;
    bool              *fkeys_dropped;
    int                nfkeys_dropped;
    bool               cascade;   /* a DROP ... CASCADE among the actions */
} draft;

static void col_release(draft_col *c) {
    if (c->from < 0) attu_column_free(c->col);
    free(c->dflt);
    c->col = NULL;
    c->dflt = NULL;
}

static void draft_free(draft *d) {
    for (int i = 0; i < d->n; i++) col_release(&d->cols[i]);
    free(d->cols);
    free(d->added);
    free(d->dropped);
    free(d->new_checks);
    free(d->checks_dropped);
    free(d->new_fkeys);
    free(d->fkeys_dropped);
}

static int push_fkey(draft *d, const attu_ast_unique_def *k, attu_error *err) {
    const attu_ast_unique_def **p = realloc(d->new_fkeys, sizeof *p * (size_t)(d->nnew_fkeys + 1));
    if (!p) return attu_error_oom(err);
    d->new_fkeys = p;
    d->new_fkeys[d->nnew_fkeys++] = k;
    return 0;
}

static int push_check(draft *d, const attu_ast_unique_def *k, attu_error *err) {
    const attu_ast_unique_def **p = realloc(d->new_checks, sizeof *p * (size_t)(d->nnew_checks + 1));
    if (!p) return attu_error_oom(err);
    d->new_checks = p;
    d->new_checks[d->nnew_checks++] = k;
    return 0;
}

static int find(const draft *d, const char *name) {
    for (int i = 0; i < d->n; i++) if (!strcmp(d->cols[i].def.name, name)) return i;
    return -1;
}

static void notice(const draft *d, const char *sqlstate, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void notice(const draft *d, const char *sqlstate, const char *fmt, ...) {
    if (!d->cb || !d->cb->on_notice) return;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    d->cb->on_notice(d->cb->ctx, sqlstate, msg);
}

/* The column an action names, or 42703 as PostgreSQL words it for ALTER
 * [COLUMN] (RENAME words it without the relation). */
static int need_column(const draft *d, const char *name, attu_error *err) {
    int c = find(d, name);
    if (c < 0)
        attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, 0, "column \"%s\" of relation \"%s\" does not exist", name,
                       d->base->name);
    return c;
}

/* A table column of def's type holding src's rows (src NULL: n NULLs; a
 * one-row src: n copies of it), built as CREATE TABLE AS builds its
 * columns (db_append_rows: TEXT into a dictionary of its own). NOT NULL is
 * checked by the caller, once, with ALTER's message. */
static attu_column *build_column(const attu_column_def *def, const char *table, attu_column *src, size_t n,
                                 attu_error *err) {
    attu_column_def d = *def;
    d.not_null = false;
    attu_table *empty = attu_table_new(table, 1, &d, err);
    if (!empty) return NULL;
    int map[1] = { src ? 0 : -1 };
    attu_table *t = db_append_rows(empty, &src, map, n, err);
    attu_table_free(empty);
    if (!t) return NULL;
    attu_column *c = t->cols[0];
    t->cols[0] = NULL;
    attu_table_free(t);
    return c;
}

/* The draft as a table (columns borrowed: detach_table gives them back). */
static attu_table *draft_table(const draft *d, attu_error *err) {
    attu_table *t = calloc(1, sizeof *t);
    if (!t) return attu_error_oom(err), NULL;
    memcpy(t->name, d->base->name, sizeof t->name);
    t->uid = attu_table_new_uid();   /* (a new version: no lineage, its columns changed) */
    t->ncols = d->n;
    t->nrows = d->base->nrows;
    t->version = d->base->version + 1;
    t->defs = calloc((size_t)d->n + 1, sizeof *t->defs);
    t->cols = calloc((size_t)d->n + 1, sizeof *t->cols);
    if (!t->defs || !t->cols) {
        free(t->defs); free(t->cols); free(t);
        return attu_error_oom(err), NULL;
    }
    for (int i = 0; i < d->n; i++) {
        t->defs[i] = d->cols[i].def;
        t->cols[i] = d->cols[i].col;
    }
    return t;
}

static void detach_table(attu_table *t) {
    if (!t) return;
    for (int i = 0; i < t->ncols; i++) t->cols[i] = NULL;
    attu_table_free(t);
}

/* ---- ADD COLUMN ------------------------------------------------------------------------ */

/* Whether the table has a primary key: one of its constraints, one this
 * statement added, or a column declared PRIMARY KEY. */
static bool has_primary_key(const draft *d) {
    int nu = 0;
    const attu_unique *u = attu_catalog_uniques(db_cat(d->s), d->base->name, &nu);
    for (int k = 0; k < nu; k++) if (u[k].primary && !(k < d->ndropped && d->dropped[k])) return true;
    for (int k = 0; k < d->nadded; k++) if (d->added[k].primary) return true;
    for (int i = 0; i < d->n; i++) if (d->cols[i].def.primary_key) return true;
    return false;
}

/* A serial or identity column's values for the table's rows: its new
 * sequence's numbers, drawn in row order as PostgreSQL's rewrite of the
 * table draws them. The sequence is undone with the statement should it
 * fail (db_exec_alter's snapshot). */
static attu_column *number_rows(draft *d, const draft_col *c, attu_error *err) {
    size_t n = d->base->nrows;
    if (!n) return build_column(&c->def, d->base->name, NULL, 0, err);
    char *name = db_default_sequence(c->dflt);
    int64_t *v = malloc(sizeof *v * n);
    attu_column *src = NULL, *out = NULL;
    if (!name || !v) { attu_error_oom(err); goto done; }
    if (db_sequence_draw(d->s, &name, 1, n, v, err)) goto done;
    if (!(src = attu_column_new(c->def.type, n, err))) goto done;
    src->length = n;
    for (size_t r = 0; r < n; r++)
        if (db_sequence_store(src, r, v[r], err)) goto done;
    out = build_column(&c->def, d->base->name, src, n, err);
done:
    attu_column_free(src);
    free(v);
    free(name);
    return out;
}

/* A new constraint over draft columns cols[0..n): name given (42P07 when
 * a relation has it) or chosen as PostgreSQL chooses it. */
static int push_key(draft *d, const attu_ast_unique_def *k, const int *cols, int n, attu_error *err) {
    bool primary = k->primary;
    const char *name = k->name;
    if (d->nadded == d->added_cap) {
        int nc = d->added_cap ? d->added_cap * 2 : 4;
        attu_unique *p = realloc(d->added, sizeof *p * (size_t)nc);
        if (!p) return attu_error_oom(err);
        d->added = p;
        d->added_cap = nc;
    }
    attu_unique *u = &d->added[d->nadded];
    memset(u, 0, sizeof *u);
    u->primary = primary;
    u->deferrable = k->deferrable || k->initially_deferred;
    u->initially_deferred = k->initially_deferred;
    u->ncols = n;
    memcpy(u->cols, cols, sizeof *cols * (size_t)n);
    if (name) {
        /* the name of a constraint this statement drops is free again
         * (the one relation namespace holds it only once) */
        int nu = 0;
        bool freed = false;
        const attu_unique *old = attu_catalog_uniques(db_cat(d->s), d->base->name, &nu);
        for (int k = 0; k < nu && k < d->ndropped; k++) freed |= d->dropped[k] && !strcmp(old[k].name, name);
        bool taken = false;
        for (int k = 0; k < d->nadded; k++) taken |= !strcmp(d->added[k].name, name);
        if (taken || (!freed && (db_unique_name_taken(db_cat(d->s), d->base->name, d->added, d->nadded, name) ||
                                 db_relation_exists(d->s, name))))
            return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists", name);
        snprintf(u->name, sizeof u->name, "%s", name);
    } else {
        attu_column_def *defs = calloc((size_t)d->n + 1, sizeof *defs);
        if (!defs) return attu_error_oom(err);
        for (int i = 0; i < d->n; i++) defs[i] = d->cols[i].def;
        db_unique_choose_name(db_cat(d->s), d->base->name, defs, u, d->added, d->nadded);
        free(defs);
    }
    d->nadded++;
    return 0;
}

/* The PRIMARY KEY / UNIQUE constraints written on new column ci, checked
 * with the others once every action has run. */
static int add_constraints(draft *d, const attu_ast_column_def *cd, int ci, attu_error *err) {
    for (int k = 0; k < cd->nuniques; k++) {
        const attu_ast_unique_def *ud = &cd->uniques[k];
        if (ud->check || ud->fkey) {
            if ((ud->check ? push_check : push_fkey)(d, ud, err)) return -1;
            continue;
        }
        int same = -1;
        bool deferrable = ud->deferrable || ud->initially_deferred;
        for (int j = 0; j < d->nadded && same < 0; j++)
            if (d->added[j].ncols == 1 && d->added[j].cols[0] == ci && d->added[j].deferrable == deferrable &&
                d->added[j].initially_deferred == ud->initially_deferred)
                same = j;
        if (same >= 0) {   /* UNIQUE PRIMARY KEY: one constraint, as PostgreSQL merges them */
            d->added[same].primary |= ud->primary;
            continue;
        }
        if (push_key(d, ud, &ci, 1, err)) return -1;
    }
    return 0;
}

static int add_column(draft *d, const attu_ast_alter_cmd *cmd, attu_error *err) {
    const attu_ast_column_def *cd = &cmd->def;
    const char *table = d->base->name;
    if (attu_check_column_name(cd->name, err)) return -1;
    if (find(d, cd->name) >= 0) {
        if (cmd->if_exists) {
            notice(d, ATTU_SQLSTATE_DUPLICATE_COLUMN, "column \"%s\" of relation \"%s\" already exists, skipping",
                   cd->name, table);
            return 0;
        }
        return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_COLUMN, 0, "column \"%s\" of relation \"%s\" already exists",
                              cd->name, table);
    }
    if (cd->primary_key && has_primary_key(d))
        return attu_error_set(err, "42P16", 0, "multiple primary keys for table \"%s\" are not allowed", table);
    draft_col c;
    memset(&c, 0, sizeof c);
    c.from = c.orig = -1;
    snprintf(c.def.name, sizeof c.def.name, "%s", cd->name);
    /* serial and identity columns, checked as CREATE TABLE checks them */
    attu_type_id serial = db_serial_type(cd->type.name, cd->type.precision);
    if (serial) c.def.type = attu_type_make(serial);
    else if (db_column_type(&cd->type, &c.def.type, err)) return -1;
    char owned = serial ? 's' : cd->identity;
    if (cd->generated) {
        /* GENERATED ALWAYS AS (expr) STORED: checked over the table as it
         * stands (db_generated.c), every existing row computed; ALTER's
         * errors have no position, as PostgreSQL's */
        if (serial || cd->default_ || cd->identity)
            return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "both %s and generation expression specified for column \"%s\" of table \"%s\"",
                                  cd->identity ? "identity" : "default", cd->name, table);
        c.def.not_null = cd->not_null;
        c.def.primary_key = cd->primary_key;
        attu_result *gv = NULL;
        attu_table *dt = draft_table(d, err);
        int grc = dt ? db_generated_define(d->s, dt, cd->name, c.def.type, cd, &c.dflt, &gv, err) : -1;
        detach_table(dt);
        if (grc) { err->position = 0; return -1; }
        c.def.generated = 's';
        c.col = build_column(&c.def, table, gv->cols[0], d->base->nrows, err);
        attu_result_free(gv);
        if (!c.col) { free(c.dflt); return -1; }
        goto add;
    }
    if (owned) {
        if (serial && cd->default_)
            return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0,
                                  "multiple default values specified for column \"%s\" of table \"%s\"", cd->name, table);
        if (cd->default_ || (serial && cd->identity))
            return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0,
                                  "both default and identity specified for column \"%s\" of table \"%s\"", cd->name, table);
        attu_type_id t = c.def.type.id;
        if (attu_type_is_array(c.def.type) || (t != ATTU_TYPE_INT16 && t != ATTU_TYPE_INT32 && t != ATTU_TYPE_INT64))
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                                  "identity column type must be smallint, integer, or bigint");
    }
    c.def.not_null = cd->not_null || owned;
    c.def.primary_key = cd->primary_key;
    c.identity = serial ? 0 : cd->identity;
    bool null_default = cd->default_ && cd->default_->kind == ATTU_EXPR_LITERAL &&
                        cd->default_->u.literal.kind == ATTU_LIT_NULL;
    attu_result *v = NULL;
    if (owned) {
        attu_sequence_options o = cd->identity_options;
        if (cd->identity_as.name) {
            attu_type at;
            if (attu_type_from_name(cd->identity_as.name, cd->identity_as.precision, cd->identity_as.scale, &at, err)) {
                err->position = cd->identity_as.position;
                return -1;
            }
            o.type = at.id;
        }
        if (db_sequence_create_owned(d->s, table, cd->name, c.def.type.id, serial ? 0 : cd->identity, &o, &c.dflt, err))
            return -1;
        c.col = number_rows(d, &c, err);
    } else {
        char *seq = cd->default_ ? db_nextval_default_name(cd->default_) : NULL;
        if (seq) {
            /* DEFAULT nextval('s'): as PostgreSQL evaluates a volatile
             * DEFAULT, once per row, in row order */
            bool exists = db_sequence_exists(d->s, seq);
            if (!exists) attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "relation \"%s\" does not exist", seq);
            free(seq);
            if (!exists || db_sequence_default_text(d->s, cd->default_, &c.def, &c.dflt, err) < 0) {
                err->position = 0;
                return -1;
            }
            c.col = number_rows(d, &c, err);
        } else if (cd->default_ && !null_default) {
            /* checked as CREATE TABLE checks it, then evaluated once:
             * every existing row takes that value (PostgreSQL evaluates it
             * even for an empty table: DEFAULT 1 / 0 is 22012 there too) */
            if (!(c.dflt = db_check_default(d->s, d->sql, cd, &c.def, err)) ||
                (strcmp(c.dflt, DB_DEFAULT_RANDOM_UUID) && db_eval_default(d->s, c.dflt, &c.def, table, &v, err))) {
                err->position = 0;   /* PostgreSQL gives ALTER's DEFAULT errors none */
                free(c.dflt);
                return -1;
            }
            if (!strcmp(c.dflt, DB_DEFAULT_RANDOM_UUID)) {
                /* gen_random_uuid() is volatile: a value per existing row */
                attu_column *u = db_random_uuid_column(c.def.type, d->base->nrows, err);
                if (!u) { free(c.dflt); return -1; }
                c.col = build_column(&c.def, table, u, d->base->nrows, err);
                attu_column_free(u);
            }
        }
        if (!c.col && !cd->default_) {
            /* a column of a domain with a DEFAULT: the existing rows take
             * the domain's, and the column keeps none of its own (later
             * INSERTs read the domain's then: db_column_default) */
            char *dd = db_domain_default_of(d->s, &cd->type, err);
            if (!dd && err->set) return -1;
            int bad = dd && db_eval_default(d->s, dd, &c.def, table, &v, err);
            free(dd);
            if (bad) { err->position = 0; return -1; }
        }
        if (!c.col) c.col = build_column(&c.def, table, v ? v->cols[0] : NULL, d->base->nrows, err);
    }
    attu_result_free(v);
    if (!c.col) { free(c.dflt); return -1; }
add:
    if (d->n == d->cap) {
        int nc = d->cap ? d->cap * 2 : 8;
        draft_col *p = realloc(d->cols, (size_t)nc * sizeof *p);
        if (!p) { col_release(&c); return attu_error_oom(err); }
        d->cols = p;
        d->cap = nc;
    }
    d->cols[d->n++] = c;
    return cd->nuniques ? add_constraints(d, cd, d->n - 1, err) : 0;
}

/* ---- ALTER COLUMN ... TYPE --------------------------------------------------------------- */

/* 42804 from assigning the converted values to the new type, in
 * PostgreSQL's words for ALTER (no position; its HINT). */
static void cast_message(attu_error *err, const char *column, attu_type to, bool using) {
    if (strcmp(err->sqlstate, ATTU_SQLSTATE_DATATYPE_MISMATCH) || !strstr(err->message, " but expression is of type "))
        return;
    char tn[96];
    attu_type_name(to, tn, sizeof tn);
    attu_error_clear(err);
    if (using) {
        attu_error_set(err, ATTU_SQLSTATE_DATATYPE_MISMATCH, 0,
                       "result of USING clause for column \"%s\" cannot be cast automatically to type %s", column, tn);
        attu_error_set_hint(err, "You might need to add an explicit cast.");
    } else {
        attu_error_set(err, ATTU_SQLSTATE_DATATYPE_MISMATCH, 0, "column \"%s\" cannot be cast automatically to type %s",
                       column, tn);
        char hint[256];
        snprintf(hint, sizeof hint, "You might need to specify \"USING %s::%s\".", column, tn);
        attu_error_set_hint(err, hint);
    }
}

static char *convert_default(draft *d, int c, attu_type to, attu_error *err);

/* Runs SELECT rowid, e FROM t (the table as it was before this statement)
 * with e assigned to type `to` (e: the USING expression, or the column
 * itself) and returns the values in the table's row order, as a host
 * column of n rows. Between binding and running, as PostgreSQL orders its
 * checks, the column's DEFAULT is cast to the new type: *dflt. */
static attu_column *convert(draft *d, int c, const attu_ast_alter_cmd *cmd, attu_type to, char **dflt,
                            attu_error *err) {
    attu_plan_arena *pa = attu_plan_arena_new();
    attu_column **cols = NULL, *out = NULL;
    size_t n = 0, *rows = NULL;
    attu_lplan *lp = NULL;
    *dflt = NULL;
    if (!pa) { attu_error_oom(err); goto done; }

    attu_ast_expr rowid, self;
    memset(&rowid, 0, sizeof rowid);
    rowid.kind = ATTU_EXPR_COLUMN;
    rowid.depth = 1;
    rowid.position = cmd->position;
    rowid.u.column.qualifier = (char *)d->base->name;
    rowid.u.column.name = ATTU_ROWID_INTERNAL;
    self = rowid;
    self.u.column.qualifier = NULL;
    self.u.column.name = d->base->defs[d->cols[c].orig].name;
    attu_ast_expr *value = cmd->expr ? cmd->expr : &self;
    /* a string literal or NULL has no type of its own (a SELECT list would
     * make it text): it is read as the new type, as PostgreSQL reads it
     * ('x' into an integer is 22P02); into a text type it stays text, so
     * that varchar(n) still fails on a long one */
    attu_ast_expr cast;
    if (value->kind == ATTU_EXPR_LITERAL && (value->u.literal.kind == ATTU_LIT_STRING || value->u.literal.kind == ATTU_LIT_NULL) &&
        to.id != ATTU_TYPE_TEXT) {
        memset(&cast, 0, sizeof cast);
        cast.kind = ATTU_EXPR_CAST;
        cast.position = value->position;
        cast.depth = value->depth + 1;
        cast.u.cast.arg = value;
        cast.u.cast.type = cmd->type;
        value = &cast;
    }
    attu_ast_from from;
    memset(&from, 0, sizeof from);
    from.kind = ATTU_FROM_TABLE;
    from.position = cmd->position;
    from.depth = 1;
    from.u.table.name = (char *)d->base->name;
    /* (the table altered, not one of its name on the other side) */
    if (attu_catalog_top(db_cat(d->s))) from.u.table.schema = attu_catalog_is_top(db_cat(d->s), d->base) ? "pg_temp" : "public";
    attu_ast_from *fromv[1] = { &from };
    attu_ast_select_item items[2] = { { &rowid, NULL, 0 }, { value, NULL, 0 } };
    attu_ast_query q;
    memset(&q, 0, sizeof q);
    q.kind = ATTU_QUERY_SELECT;
    q.position = cmd->position;
    q.depth = (value->depth > 1 ? value->depth : 1) + 1;
    q.u.select.items = items;
    q.u.select.nitems = 2;
    q.u.select.from.items = fromv;
    q.u.select.from.n = 1;

    attu_bind_params bp = db_params(d->s, NULL);
    if (!(lp = attu_bind_query(pa, db_cat(d->s), d->sql, &q, &bp, err))) goto done;
    attu_lplan *p = attu_lp_new(pa, LP_PROJECT, 2);
    if (!p || !(p->exprs = attu_palloc(pa, sizeof(attu_bexpr *) * 3))) { attu_error_oom(err); goto done; }
    p->left = lp;
    for (int i = 0; i < 2; i++) {
        attu_bexpr *e = attu_bx_col(pa, i, lp->types[i]);
        if (!e) { attu_error_oom(err); goto done; }
        e->position = value->position;
        p->exprs[i] = i ? attu_bind_coerce_assign(pa, e, to, d->cols[c].def.name, err) : e;
        if (!p->exprs[i]) {
            cast_message(err, d->cols[c].def.name, to, cmd->expr != NULL);
            goto done;
        }
        p->types[i] = i ? to : lp->types[i];
        p->names[i] = lp->names[i];
    }
    p->est_rows = lp->est_rows;
    if (d->cols[c].dflt) {
        /* a serial column's nextval DEFAULT stays as it is (its sequence
         * keeps its type, as PostgreSQL's does): binding it would draw */
        char *seq = db_default_sequence(d->cols[c].dflt);
        /* (a generated column's expression stays too: its values, the
         * expression's assigned to the old type, are cast as PostgreSQL's
         * recomputation would store them) */
        if (seq || d->cols[c].def.generated) *dflt = strdup(d->cols[c].dflt);
        else *dflt = convert_default(d, c, to, err);
        free(seq);
        if (!*dflt) { if (!err->set) attu_error_oom(err); goto done; }
    }
    lp = attu_rewrite(pa, p, err);
    attu_stage *st = lp ? attu_lower(lp, err) : NULL;
    if (!st) goto done;
    int rc = db_run_stage(d->s, st, false, &cols, &n, err);
    attu_stage_free(st);
    if (rc) {
        cols = NULL;
        goto done;
    }
    /* one value per row; put them in the table's order */
    size_t nrows = d->base->nrows;
    if (n != nrows) {
        attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "ALTER TABLE: %zu values for %zu rows", n, nrows);
        goto done;
    }
    if (!(rows = malloc(sizeof *rows * (nrows ? nrows : 1)))) { attu_error_oom(err); goto done; }
    const int64_t *ids = cols[0]->data;
    for (size_t i = 0; i < n; i++) {
        if (ids[i] < 0 || (size_t)ids[i] >= nrows) {
            attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "ALTER TABLE: row %lld out of range", (long long)ids[i]);
            goto done;
        }
        rows[ids[i]] = i;
    }
    attu_column *ordered = attu_column_gather(cols[1], rows, n, err);
    if (ordered) {
        attu_column_def def = d->cols[c].def;
        def.type = to;
        out = build_column(&def, d->base->name, ordered, nrows, err);
        attu_column_free(ordered);
    }
done:
    /* PostgreSQL's conversion errors (22P02, 22003, 22001...) come from
     * its rewrite of the rows, with no position (attu may meet them
     * folding a constant while binding) */
    if (!out && err->set && err->sqlstate[0] == '2' && err->sqlstate[1] == '2') err->position = 0;
    if (cols) { attu_column_free(cols[0]); attu_column_free(cols[1]); free(cols); }
    free(rows);
    attu_plan_arena_free(pa);
    if (!out) { free(*dflt); *dflt = NULL; }
    return out;
}

/* The column's DEFAULT after its type changes. PostgreSQL keeps the
 * expression without the implicit casts to the old type and assigns it to
 * the new one: integer 7 of an integer column becomes text '7' and back.
 * A string literal, though, was read as the old type when the DEFAULT was
 * made ('q' of a text column is text, which no assignment turns into an
 * integer), so it becomes CAST(('q') AS old type). 42804 in PostgreSQL's
 * words when no assignment cast exists. */
/* The type t as SQL that reads back as t, modifiers included (the names
 * PostgreSQL shows leave out char(n)'s and varchar(n)'s length). */
static const char *type_sql(attu_type t, char *buf, size_t cap) {
    if (attu_type_is_qualified_interval(t)) return attu_type_interval_name(t, buf, cap);
    if (attu_type_is_bpchar(t)) snprintf(buf, cap, "character(%d)", t.precision);
    else if (attu_type_is_varchar_any(t) && t.precision > 0) snprintf(buf, cap, "character varying(%d)", t.precision);
    else attu_type_name(t, buf, cap);
    return buf;
}

static char *convert_default(draft *d, int c, attu_type to, attu_error *err) {
    const draft_col *dc = &d->cols[c];
    char tn[96];
    type_sql(dc->def.type, tn, sizeof tn);
    size_t cap = strlen(dc->dflt) + strlen(tn) + 32;
    char *text = malloc(cap);
    if (!text) return attu_error_oom(err), NULL;
    if (dc->dflt[0] == '\'') snprintf(text, cap, "VALUES (CAST((%s) AS %s))", dc->dflt, tn);
    else snprintf(text, cap, "VALUES (%s)", dc->dflt);
    attu_error e2;
    attu_error_clear(&e2);
    attu_parse_result *pr = attu_parse(text, &e2);
    char *out = NULL;
    if (pr && pr->n == 1 && pr->stmts[0].stmt->kind == ATTU_STMT_SELECT &&
        pr->stmts[0].stmt->u.select.query->kind == ATTU_QUERY_VALUES) {
        attu_ast_column_def cd;
        memset(&cd, 0, sizeof cd);
        cd.name = (char *)dc->def.name;
        cd.default_ = pr->stmts[0].stmt->u.select.query->u.values.rows[0].items[0];
        attu_column_def def = dc->def;
        def.type = to;
        out = db_check_default(d->s, text, &cd, &def, err);
        if (!out) {
            err->position = 0;
            if (!strcmp(err->sqlstate, ATTU_SQLSTATE_DATATYPE_MISMATCH) && strstr(err->message, "default expression")) {
                char tname[96];
                attu_type_name(to, tname, sizeof tname);
                attu_error_clear(err);
                attu_error_set(err, ATTU_SQLSTATE_DATATYPE_MISMATCH, 0,
                               "default for column \"%s\" cannot be cast automatically to type %s", dc->def.name, tname);
            }
        }
    } else {
        attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "the DEFAULT of column \"%s\" cannot be kept: %s", dc->def.name,
                       e2.set ? e2.message : "it does not parse");
    }
    attu_parse_free(pr);
    free(text);
    return out;
}

/* As PostgreSQL, the conversion reads the rows as they were before the
 * statement (USING sees the old values of every column, even of one
 * dropped by an earlier action), so it applies to a column of the old
 * table only (the passes run it before any ADD COLUMN; the check is
 * there should that change) and only once (0A000). */
static int alter_type(draft *d, int c, const attu_ast_alter_cmd *cmd, attu_error *err) {
    draft_col *dc = &d->cols[c];
    if (dc->orig < 0)
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, 0, "column \"%s\" of relation \"%s\" does not exist",
                              dc->def.name, d->base->name);
    attu_type was = d->base->defs[dc->orig].type;
    /* (exactly the type it had: varchar(9) is not text here) */
    if (dc->def.type.id != was.id || dc->def.type.precision != was.precision || dc->def.type.scale != was.scale)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "cannot alter type of column \"%s\" twice",
                              dc->def.name);
    attu_type to;
    if (db_column_type(&cmd->type, &to, err)) { err->position = 0; return -1; }
    if (cmd->expr && db_check_transform_expr(cmd->expr, err)) return -1;
    bool int_to = !attu_type_is_array(to) &&
                  (to.id == ATTU_TYPE_INT16 || to.id == ATTU_TYPE_INT32 || to.id == ATTU_TYPE_INT64);
    const char *orig_name = d->base->defs[dc->orig].name;
    char identity = db_sequence_identity(d->s, d->base->name, orig_name);
    if (identity && !int_to)
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0,
                              "identity column type must be smallint, integer, or bigint");
    char *seq = dc->dflt ? db_default_sequence(dc->dflt) : NULL;
    bool draws = seq != NULL;
    free(seq);
    if (draws && !int_to)
        /* (attu draws nextval DEFAULTs into integer columns only) */
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "ALTER TABLE ... TYPE of column \"%s\", whose DEFAULT is nextval(), to a type other than "
                              "smallint, integer or bigint is not supported", dc->def.name);
    /* an identity column's sequence takes the new type, as PostgreSQL's
     * does, before the rows are converted (undone with the statement) */
    if (identity && db_sequence_retype_identity(d->s, d->base->name, orig_name, to.id, err)) return -1;
    char *dflt = NULL;
    attu_column *col = convert(d, c, cmd, to, &dflt, err);
    if (!col) return -1;
    if (dflt) { free(dc->dflt); dc->dflt = dflt; }
    if (dc->from < 0) attu_column_free(dc->col);
    dc->col = col;
    dc->from = -1;
    dc->def.type = to;
    return 0;
}

/* ---- the other actions ---------------------------------------------------------------------- */

static int set_default(draft *d, int c, const attu_ast_alter_cmd *cmd, attu_error *err) {
    char *text = NULL;
    if (cmd->expr) {
        attu_ast_column_def cd;
        memset(&cd, 0, sizeof cd);
        cd.name = d->cols[c].def.name;
        cd.position = cmd->position;
        cd.default_ = cmd->expr;
        if (!(text = db_check_default(d->s, d->sql, &cd, &d->cols[c].def, err))) {
            err->position = 0;   /* as PostgreSQL: no position in ALTER's DEFAULT errors */
            return -1;
        }
    }
    free(d->cols[c].dflt);
    d->cols[c].dflt = text;
    return 0;
}

/* Whether column c was declared PRIMARY KEY (its NOT NULL belongs to the
 * key: PostgreSQL refuses to drop it). */
static bool in_primary_key(const draft *d, int c) {
    if (d->cols[c].def.primary_key) return true;
    int nu = 0;
    const attu_unique *u = attu_catalog_uniques(db_cat(d->s), d->base->name, &nu);
    for (int k = 0; k < nu; k++)
        for (int j = 0; u[k].primary && !(k < d->ndropped && d->dropped[k]) && j < u[k].ncols; j++)
            if (u[k].cols[j] == d->cols[c].orig) return true;
    for (int k = 0; k < d->nadded; k++)
        for (int j = 0; d->added[k].primary && j < d->added[k].ncols; j++)
            if (d->added[k].cols[j] == c) return true;
    return false;
}

/* ALTER TABLE ... ADD [CONSTRAINT name] PRIMARY KEY (cols) / UNIQUE
 * (cols): the key's columns (of the table as the earlier passes left
 * it), NOT NULL for a primary key's (checked on the final rows), the
 * constraint named as CREATE TABLE names it and checked over the rows
 * once every action has run. */
static int add_constraint(draft *d, const attu_ast_unique_def *k, attu_error *err) {
    if (k->check) return push_check(d, k, err);   /* (defined at the end: final_checks) */
    if (k->fkey) return push_fkey(d, k, err);     /* (and commit_draft) */
    if (k->columns.n > ATTU_INDEX_MAX_KEYS)
        return attu_error_set(err, "54011", 0, "cannot use more than %d columns in an index", ATTU_INDEX_MAX_KEYS);
    if (k->primary && has_primary_key(d))
        return attu_error_set(err, "42P16", 0, "multiple primary keys for table \"%s\" are not allowed", d->base->name);
    int cols[ATTU_INDEX_MAX_KEYS];
    for (int j = 0; j < k->columns.n; j++) {
        int c = find(d, k->columns.items[j]);
        if (c < 0) return need_column(d, k->columns.items[j], err);
        for (int i = 0; i < j; i++)
            if (cols[i] == c)
                return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_COLUMN, k->position, "column \"%s\" appears twice in %s constraint",
                                      d->cols[c].def.name, k->primary ? "primary key" : "unique");
        cols[j] = c;
    }
    if (k->primary)
        for (int j = 0; j < k->columns.n; j++) d->cols[cols[j]].def.not_null = true;
    return push_key(d, k, cols, k->columns.n, err);
}

/* ALTER TABLE ... DROP CONSTRAINT [IF EXISTS] name: one of the table's
 * PRIMARY KEY / UNIQUE constraints. As in PostgreSQL 15 a primary key's
 * columns stay NOT NULL. */
static int drop_constraint(draft *d, const attu_ast_alter_cmd *cmd, attu_error *err) {
    int nu = 0;
    const attu_unique *u = attu_catalog_uniques(db_cat(d->s), d->base->name, &nu);
    int k = 0;
    /* (a unique index's key is no constraint: DROP INDEX drops it) */
    while (k < nu && (u[k].index || strcmp(u[k].name, cmd->column) || (k < d->ndropped && d->dropped[k]))) k++;
    if (k == nu) {
        /* a CHECK constraint of that name */
        int nc = 0;
        const attu_check *c = attu_catalog_checks(db_cat(d->s), d->base->name, &nc);
        int j = 0;
        while (j < nc && (strcmp(c[j].name, cmd->column) || (j < d->nchecks_dropped && d->checks_dropped[j]))) j++;
        if (j < nc) {
            if (!d->checks_dropped) {
                if (!(d->checks_dropped = calloc((size_t)nc, sizeof *d->checks_dropped))) return attu_error_oom(err);
                d->nchecks_dropped = nc;
            }
            d->checks_dropped[j] = true;
            return 0;
        }
        /* a FOREIGN KEY of that name */
        const attu_fkey *f = attu_catalog_fkeys(db_cat(d->s), d->base->name, &nc);
        for (j = 0; j < nc && (strcmp(f[j].name, cmd->column) || (j < d->nfkeys_dropped && d->fkeys_dropped[j])); j++) {}
        if (j < nc) {
            if (!d->fkeys_dropped) {
                if (!(d->fkeys_dropped = calloc((size_t)nc, sizeof *d->fkeys_dropped))) return attu_error_oom(err);
                d->nfkeys_dropped = nc;
            }
            d->fkeys_dropped[j] = true;
            return 0;
        }
        if (cmd->if_exists) {
            notice(d, "00000", "constraint \"%s\" of relation \"%s\" does not exist, skipping", cmd->column, d->base->name);
            return 0;
        }
        return attu_error_set(err, "42704", 0, "constraint \"%s\" of relation \"%s\" does not exist", cmd->column,
                              d->base->name);
    }
    /* a foreign key referencing its columns depends on it (PostgreSQL's
     * on its index): 2BP01 unless CASCADE (db_fkey.c) */
    const char *owner = NULL;
    const attu_fkey *dep = db_fkey_depends_on(db_cat(d->s), d->base->name, &u[k], &owner);
    if (dep && !cmd->cascade) {
        attu_error_set(err, "2BP01", 0, "cannot drop constraint %s on table %s because other objects depend on it",
                       u[k].name, d->base->name);
        attu_error_set_detail(err, "constraint %s on table %s depends on index %s", dep->name, owner, u[k].name);
        attu_error_set_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
        return -1;
    }
    if (dep) d->cascade = true;
    if (!d->dropped) {
        if (!(d->dropped = calloc((size_t)nu, sizeof *d->dropped))) return attu_error_oom(err);
        d->ndropped = nu;
    }
    d->dropped[k] = true;
    /* (a column declared PRIMARY KEY is the key no longer) */
    for (int j = 0; u[k].primary && j < u[k].ncols; j++)
        for (int i = 0; i < d->n; i++)
            if (d->cols[i].orig == u[k].cols[j]) d->cols[i].def.primary_key = false;
    return 0;
}

/* 42601 for SET / DROP DEFAULT and DROP NOT NULL of an identity column:
 * its DEFAULT and NOT NULL are the identity's, as PostgreSQL says. */
static int identity_column(const draft *d, int c, bool hint, attu_error *err) {
    if (!d->cols[c].identity) return 0;
    attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "column \"%s\" of relation \"%s\" is an identity column",
                   d->cols[c].def.name, d->base->name);
    if (hint) attu_error_set_hint(err, "Use ALTER TABLE ... ALTER COLUMN ... DROP IDENTITY instead.");
    return -1;
}

/* DROP COLUMN c takes its owned sequences along: a DEFAULT elsewhere that
 * draws from one is 2BP01, or with CASCADE removed (this table's here, in
 * the draft; another table's is 0A000, db_sequences_owner_dependents). */
static int drop_sequence_dependents(draft *d, int c, bool cascade, attu_error *err) {
    const char *table = d->base->name, *column = d->base->defs[d->cols[c].orig].name;
    if (db_sequences_owner_dependents(d->s, &table, 1, column, cascade, false, d->cb, err)) return -1;
    for (int k = 0; cascade && k < d->n; k++) {
        char *seq = k != c && d->cols[k].dflt ? db_default_sequence(d->cols[k].dflt) : NULL;
        bool hit = seq && db_sequence_owned_by(d->s, seq, table, column);
        free(seq);
        if (!hit) continue;
        notice(d, "00000", "drop cascades to default value for column %s of table %s", d->cols[k].def.name, table);
        free(d->cols[k].dflt);
        d->cols[k].dflt = NULL;
    }
    return 0;
}

/* 55000 for an identity action on a column that is none. */
static int not_identity(const draft *d, int c, attu_error *err) {
    return attu_error_set(err, "55000", 0, "column \"%s\" of relation \"%s\" is not an identity column",
                          d->cols[c].def.name, d->base->name);
}

/* ALTER c ADD GENERATED ... AS IDENTITY: a NOT NULL integer column with no
 * DEFAULT gets its own sequence (starting afresh: the rows keep their
 * values, as in PostgreSQL). */
static int add_identity(draft *d, int c, const attu_ast_alter_cmd *cmd, attu_error *err) {
    draft_col *dc = &d->cols[c];
    attu_type_id t = dc->def.type.id;
    if (attu_type_is_array(dc->def.type) || (t != ATTU_TYPE_INT16 && t != ATTU_TYPE_INT32 && t != ATTU_TYPE_INT64))
        return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "identity column type must be smallint, integer, or bigint");
    if (!dc->def.not_null)
        return attu_error_set(err, "55000", 0, "column \"%s\" of relation \"%s\" must be declared NOT NULL before identity can be added",
                              dc->def.name, d->base->name);
    if (dc->identity)
        return attu_error_set(err, "55000", 0, "column \"%s\" of relation \"%s\" is already an identity column",
                              dc->def.name, d->base->name);
    if (dc->dflt)
        return attu_error_set(err, "55000", 0, "column \"%s\" of relation \"%s\" already has a default value",
                              dc->def.name, d->base->name);
    attu_sequence_options o = cmd->def.identity_options;
    const attu_ast_typename *as = &cmd->def.identity_as;
    if (as->name) {
        attu_type at;
        if (attu_type_from_name(as->name, as->precision, as->scale, &at, err)) { err->position = as->position; return -1; }
        o.type = at.id;
    }
    char *dflt = NULL;
    if (db_sequence_create_owned(d->s, d->base->name, dc->def.name, t, cmd->def.identity, &o, &dflt, err) ||
        db_sequences_save(d->s, err)) {
        free(dflt);
        return -1;   /* (a sequence made is undone with the statement) */
    }
    dc->dflt = dflt;
    dc->identity = cmd->def.identity;
    return 0;
}

/* DROP COLUMN of a column a generated column reads: PostgreSQL's 2BP01
 * naming the first one, or, with CASCADE, those columns dropped too
 * (the notice lists them). */
static int drop_generated_dependents(draft *d, int c, bool cascade, attu_error *err) {
    const char *name = d->cols[c].def.name, *table = d->base->name;
    int ndep = 0, first = -1;
    for (int j = 0; j < d->n; j++)
        if (j != c && d->cols[j].def.generated && d->cols[j].dflt && attu_sql_column_position(d->cols[j].dflt, name)) {
            if (first < 0) first = j;
            ndep++;
        }
    if (!ndep) return 0;
    if (!cascade) {
        attu_error_set(err, "2BP01", 0, "cannot drop column %s of table %s because other objects depend on it", name, table);
        attu_error_set_detail(err, "column %s of table %s depends on column %s of table %s", d->cols[first].def.name, table,
                              name, table);
        attu_error_set_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
        return -1;
    }
    /* (PostgreSQL's DETAIL lists each column; the notice here names the
     * count) */
    if (ndep == 1) notice(d, "00000", "drop cascades to column %s of table %s", d->cols[first].def.name, table);
    else notice(d, "00000", "drop cascades to %d other objects", ndep);
    for (int j = d->n - 1; j >= 0; j--) {
        if (j == c || !d->cols[j].def.generated || !d->cols[j].dflt || !attu_sql_column_position(d->cols[j].dflt, name))
            continue;
        col_release(&d->cols[j]);
        memmove(d->cols + j, d->cols + j + 1, (size_t)(d->n - j - 1) * sizeof *d->cols);
        d->n--;
        if (j < c) c--;
    }
    return 0;
}

static int apply(draft *d, const attu_ast_alter_cmd *cmd, attu_error *err) {
    int c;
    switch (cmd->kind) {
    case ATTU_ALTER_ADD_COLUMN:
        return add_column(d, cmd, err);
    case ATTU_ALTER_DROP_COLUMN:
        if ((c = find(d, cmd->column)) < 0) {
            if (cmd->if_exists) {
                notice(d, "00000", "column \"%s\" of relation \"%s\" does not exist, skipping", cmd->column, d->base->name);
                return 0;
            }
            return need_column(d, cmd->column, err);
        }
        if (d->cols[c].orig >= 0 && drop_sequence_dependents(d, c, cmd->cascade, err)) return -1;
        if (drop_generated_dependents(d, c, cmd->cascade, err)) return -1;
        if ((c = find(d, cmd->column)) < 0) return 0;   /* (moved by a cascade) */
        if (cmd->cascade) d->cascade = true;   /* (foreign keys over it go too) */
        /* (PostgreSQL allows dropping the last column: a table of none) */
        col_release(&d->cols[c]);
        memmove(d->cols + c, d->cols + c + 1, (size_t)(d->n - c - 1) * sizeof *d->cols);
        d->n--;
        return 0;
    case ATTU_ALTER_RENAME_COLUMN:
        if ((c = find(d, cmd->column)) < 0)
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, 0, "column \"%s\" does not exist", cmd->column);
        if (attu_check_column_name(cmd->new_name, err)) return -1;
        if (find(d, cmd->new_name) >= 0)
            return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_COLUMN, 0, "column \"%s\" of relation \"%s\" already exists",
                                  cmd->new_name, d->base->name);
        /* the generation expressions that read it follow the new name */
        for (int j = 0; j < d->n; j++) {
            if (!d->cols[j].def.generated || !d->cols[j].dflt) continue;
            int count = 0;
            char *r = attu_sql_rename_column(d->cols[j].dflt, d->cols[c].def.name, cmd->new_name, &count, err);
            if (!r) return -1;
            free(d->cols[j].dflt);
            d->cols[j].dflt = r;
        }
        snprintf(d->cols[c].def.name, sizeof d->cols[c].def.name, "%s", cmd->new_name);
        return 0;
    case ATTU_ALTER_SET_DEFAULT:
        if ((c = need_column(d, cmd->column, err)) < 0 || identity_column(d, c, false, err)) return -1;
        if (d->cols[c].def.generated)
            return attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "column \"%s\" of relation \"%s\" is a generated column",
                                  d->cols[c].def.name, d->base->name);
        return set_default(d, c, cmd, err);
    case ATTU_ALTER_DROP_DEFAULT:
        if ((c = need_column(d, cmd->column, err)) < 0 || identity_column(d, c, true, err)) return -1;
        if (d->cols[c].def.generated) {
            attu_error_set(err, ATTU_SQLSTATE_SYNTAX, 0, "column \"%s\" of relation \"%s\" is a generated column",
                           d->cols[c].def.name, d->base->name);
            attu_error_set_hint(err, "Use ALTER TABLE ... ALTER COLUMN ... DROP EXPRESSION instead.");
            return -1;
        }
        free(d->cols[c].dflt);
        d->cols[c].dflt = NULL;
        return 0;
    case ATTU_ALTER_SET_NOT_NULL:
        if ((c = need_column(d, cmd->column, err)) < 0) return -1;
        d->cols[c].def.not_null = true;   /* checked at the end */
        return 0;
    case ATTU_ALTER_DROP_NOT_NULL:
        if ((c = need_column(d, cmd->column, err)) < 0 || identity_column(d, c, false, err)) return -1;
        if (in_primary_key(d, c))
            return attu_error_set(err, "42P16", 0, "column \"%s\" is in a primary key", d->cols[c].def.name);
        d->cols[c].def.not_null = false;
        return 0;
    case ATTU_ALTER_TYPE:
        if ((c = need_column(d, cmd->column, err)) < 0) return -1;
        for (int j = 0; j < d->n; j++)
            if (j != c && d->cols[j].def.generated && d->cols[j].dflt &&
                attu_sql_column_position(d->cols[j].dflt, d->cols[c].def.name)) {
                attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                               "cannot alter type of a column used by a generated column");
                attu_error_set_detail(err, "Column \"%s\" is used by generated column \"%s\".", d->cols[c].def.name,
                                      d->cols[j].def.name);
                return -1;
            }
        return alter_type(d, c, cmd, err);
    case ATTU_ALTER_ADD_CONSTRAINT:
        return add_constraint(d, cmd->key, err);
    case ATTU_ALTER_DROP_CONSTRAINT:
        return drop_constraint(d, cmd, err);
    case ATTU_ALTER_ADD_IDENTITY:
        if ((c = need_column(d, cmd->column, err)) < 0) return -1;
        return add_identity(d, c, cmd, err);
    case ATTU_ALTER_SET_IDENTITY:
        if ((c = need_column(d, cmd->column, err)) < 0) return -1;
        if (!d->cols[c].identity) return not_identity(d, c, err);
        if (db_sequence_set_identity(d->s, d->base->name, d->cols[c].def.name, cmd->def.identity,
                                     &cmd->def.identity_options, err))
            return -1;
        if (cmd->def.identity) d->cols[c].identity = cmd->def.identity;
        return 0;
    case ATTU_ALTER_DROP_IDENTITY:
        if ((c = need_column(d, cmd->column, err)) < 0) return -1;
        if (!d->cols[c].identity) {
            if (!cmd->if_exists) return not_identity(d, c, err);
            notice(d, "00000", "column \"%s\" of relation \"%s\" is not an identity column, skipping", d->cols[c].def.name,
                   d->base->name);
            return 0;
        }
        /* its sequence and DEFAULT go; NOT NULL stays */
        if (db_sequence_drop_identity(d->s, d->base->name, d->cols[c].def.name, err)) return -1;
        free(d->cols[c].dflt);
        d->cols[c].dflt = NULL;
        d->cols[c].identity = 0;
        return 0;
    case ATTU_ALTER_RENAME_TABLE: case ATTU_ALTER_RENAME_CONSTRAINT: case ATTU_ALTER_VALIDATE_CONSTRAINT:
    case ATTU_ALTER_ALTER_CONSTRAINT: case ATTU_ALTER_SET_OPTIONS: case ATTU_ALTER_RESET_OPTIONS:
    case ATTU_ALTER_DROP_EXPRESSION:
        if ((c = need_column(d, cmd->column, err)) < 0) return -1;
        if (!d->cols[c].def.generated) {
            if (!cmd->if_exists)
                return attu_error_set(err, "55000", 0, "column \"%s\" of relation \"%s\" is not a stored generated column",
                                      d->cols[c].def.name, d->base->name);
            notice(d, "00000", "column \"%s\" of relation \"%s\" is not a stored generated column, skipping",
                   d->cols[c].def.name, d->base->name);
            return 0;
        }
        /* a plain column keeping the values it holds */
        d->cols[c].def.generated = 0;
        free(d->cols[c].dflt);
        d->cols[c].dflt = NULL;
        return 0;
    case ATTU_ALTER_OWNER: case ATTU_ALTER_SET_SCHEMA:
        break;   /* (db_exec_alter's, before any draft) */
    }
    return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "ALTER TABLE: unexpected action");
}

/* PostgreSQL runs the actions of one statement in passes, each pass in
 * written order (tablecmds.c's AT_PASS_*): what drops (columns, DEFAULTs,
 * NOT NULLs, constraints), then the type changes, the new columns, SET
 * NOT NULL, the new PRIMARY KEY / UNIQUE constraints and last SET
 * DEFAULT. So SET DEFAULT 3, DROP DEFAULT leaves the DEFAULT 3,
 * ADD c, ALTER c SET NOT NULL works, and ALTER c TYPE ..., DROP c finds no
 * c to convert. */
static int pass_of(const attu_ast_alter_cmd *cmd) {
    switch (cmd->kind) {
    case ATTU_ALTER_DROP_COLUMN: case ATTU_ALTER_DROP_DEFAULT: case ATTU_ALTER_DROP_NOT_NULL:
    case ATTU_ALTER_DROP_CONSTRAINT: case ATTU_ALTER_DROP_IDENTITY: return 0;
    case ATTU_ALTER_TYPE: return 1;
    case ATTU_ALTER_ADD_COLUMN: return 2;
    case ATTU_ALTER_SET_NOT_NULL: case ATTU_ALTER_SET_IDENTITY: return 3;
    case ATTU_ALTER_ADD_CONSTRAINT: return 4;
    default: return 5;
    }
}

/* 23502 for the first row (and in it the first column) that holds a NULL
 * where the final columns say NOT NULL, in PostgreSQL's words for ALTER. */
static int check_not_null(const draft *d, attu_error *err) {
    int bad = -1;
    size_t bad_row = 0;
    for (int i = 0; i < d->n; i++) {
        const attu_column *col = d->cols[i].col;
        if (!d->cols[i].def.not_null || !col->validity) continue;
        size_t limit = bad >= 0 ? bad_row : col->length;
        for (size_t r = 0; r < limit; r++)
            if (attu_column_is_null(col, r)) { bad = i; bad_row = r; break; }
    }
    if (bad < 0) return 0;
    return attu_error_set(err, ATTU_SQLSTATE_NOT_NULL_VIOLATION, 0, "column \"%s\" of relation \"%s\" contains null values",
                          d->cols[bad].def.name, d->base->name);
}

/* ---- the statement ------------------------------------------------------------------------ */

/* The PRIMARY KEY / UNIQUE constraints of the new version, over its
 * columns: the table's that keep every column (they follow their columns
 * to their new places; one that loses a column goes, as PostgreSQL drops
 * the index of a dropped column), then those ADD COLUMN made. *check[k]:
 * whether constraint k must be checked over the rows (a new one, or one
 * a key column of which was converted: PostgreSQL rebuilds its index). */
static int final_constraints(const draft *d, attu_unique **out, int *nout, bool **check, attu_error *err) {
    int nu = 0, n = 0;
    const attu_unique *u = attu_catalog_uniques(db_cat(d->s), d->base->name, &nu);
    attu_unique *keep = calloc((size_t)(nu + d->nadded) + 1, sizeof *keep);
    bool *chk = calloc((size_t)(nu + d->nadded) + 1, sizeof *chk);
    if (!keep || !chk) { free(keep); free(chk); return attu_error_oom(err); }
    for (int k = 0; k < nu; k++) {
        if (k < d->ndropped && d->dropped[k]) continue;
        attu_unique x = u[k];
        bool whole = true, converted = false;
        for (int j = 0; j < x.ncols && whole; j++) {
            int to = -1;
            for (int i = 0; i < d->n && to < 0; i++)
                if (d->cols[i].orig == u[k].cols[j]) to = i;
            whole = to >= 0;
            x.cols[j] = to;
            if (whole && d->cols[to].from < 0) converted = true;
        }
        if (!whole) continue;
        chk[n] = converted;
        keep[n++] = x;
    }
    for (int k = 0; k < d->nadded; k++) {
        chk[n] = true;
        keep[n++] = d->added[k];
    }
    *out = keep;
    *nout = n;
    if (check) *check = chk;
    else free(chk);
    return 0;
}

/* 23505 when a constraint to check holds a key twice (the statement
 * changes nothing then), in PostgreSQL's words for building an index. */
static int check_keys(const draft *d, attu_error *err) {
    attu_unique *keep = NULL;
    bool *chk = NULL;
    int n = 0;
    if (final_constraints(d, &keep, &n, &chk, err)) return -1;
    int m = 0;
    for (int k = 0; k < n; k++) if (chk[k]) keep[m++] = keep[k];
    int rc = 0;
    if (m && d->base->nrows) {
        attu_table *t = draft_table(d, err);
        rc = t ? db_unique_check_index(d->s, t, keep, m, err) : -1;
        detach_table(t);
    }
    free(keep);
    free(chk);
    return rc;
}

/* The CHECK constraints of the new version: the table's that DROP
 * CONSTRAINT left and whose columns all stay (PostgreSQL drops a check
 * with a column it uses), their text following a renamed column, then
 * the new ones, defined over the final columns and checked over the
 * rows (db_check.c: 23514 "is violated by some row"). */
static int final_checks(const draft *d, attu_check **out, int *nout, attu_error *err) {
    int nc = 0, nkeep = 0;
    const attu_check *c = attu_catalog_checks(db_cat(d->s), d->base->name, &nc);
    attu_check *keep = calloc((size_t)nc + 1, sizeof *keep);
    if (!keep) return attu_error_oom(err);
    for (int k = 0; k < nc; k++) {
        if (k < d->nchecks_dropped && d->checks_dropped[k]) continue;
        attu_check x = c[k];
        if (!(x.expr = strdup(c[k].expr))) { db_check_free(keep, nkeep); return attu_error_oom(err); }
        bool whole = true;
        for (int i = 0; i < d->base->ncols && whole; i++) {
            if (!db_check_uses(&c[k], d->base->defs[i].name)) continue;
            int to = -1;
            for (int j = 0; j < d->n && to < 0; j++)
                if (d->cols[j].orig == i) to = j;
            whole = to >= 0;
            if (whole && strcmp(d->cols[to].def.name, d->base->defs[i].name) &&
                db_check_rename(&x, d->base->defs[i].name, d->cols[to].def.name, err)) {
                free(x.expr);
                db_check_free(keep, nkeep);
                return -1;
            }
        }
        if (!whole) { free(x.expr); continue; }
        keep[nkeep++] = x;
    }
    /* a type change re-checks the checks over the converted rows, as
     * PostgreSQL's table rewrite does */
    bool converted = false;
    for (int j = 0; j < d->n; j++) converted |= d->cols[j].from < 0 && d->cols[j].orig >= 0;
    if (converted && nkeep && d->base->nrows) {
        /* (not those added NOT VALID: PostgreSQL re-adds them unchecked) */
        attu_check *valid = calloc((size_t)nkeep, sizeof *valid);
        int nvalid = 0;
        if (!valid) { db_check_free(keep, nkeep); return attu_error_oom(err); }
        for (int k = 0; k < nkeep; k++) if (!keep[k].not_valid) valid[nvalid++] = keep[k];
        attu_table *t = draft_table(d, err);
        int rc = t ? db_check_table(d->s, t, valid, nvalid, err) : -1;
        free(valid);
        detach_table(t);
        if (rc) { db_check_free(keep, nkeep); return -1; }
    }
    if (!d->nnew_checks) {
        *out = keep;
        *nout = nkeep;
        return 0;
    }
    attu_table *t = draft_table(d, err);
    int rc = t ? db_check_define(d->s, t, d->new_checks, d->nnew_checks, keep, nkeep, true, true, out, nout, err) : -1;
    detach_table(t);
    db_check_free(keep, nkeep);
    return rc;
}

/* The FOREIGN KEYs of the new version t (uniques: its keys): the
 * table's that DROP CONSTRAINT left and whose columns all stay, over
 * their new numbers (a foreign key of the table to itself on both
 * sides), then the new ones, defined over the final columns and checked
 * over the rows (db_fkey.c). The other tables' foreign keys that
 * reference this one follow its columns (2BP01 for one over a dropped
 * column, unless CASCADE drops it). */
static int final_fkeys(draft *d, attu_table *t, const attu_unique *uniques, int nu, const attu_check *checks,
                       int nchecks, attu_fkey **out, int *nout, attu_error *err) {
    int nold = d->base->ncols, nf = 0;
    int *map = malloc(sizeof *map * ((size_t)nold + 1));
    if (!map) return attu_error_oom(err);
    for (int i = 0; i < nold; i++) map[i] = -1;
    for (int i = 0; i < d->n; i++) if (d->cols[i].orig >= 0) map[d->cols[i].orig] = i;
    const attu_fkey *have = attu_catalog_fkeys(db_cat(d->s), d->base->name, &nf);
    attu_fkey *left = calloc((size_t)nf + 1, sizeof *left), *kept = NULL;
    int nleft = 0, nkept = 0, rc = -1;
    if (!left) { free(map); return attu_error_oom(err); }
    int nku = 0;
    const attu_unique *ku = attu_catalog_uniques(db_cat(d->s), d->base->name, &nku);
    for (int k = 0; k < nf; k++) {
        bool gone = k < d->nfkeys_dropped && d->fkeys_dropped[k];
        /* (a key DROP CONSTRAINT ... CASCADE dropped takes the table's own
         * foreign keys on it along) */
        for (int q = 0; q < nku && q < d->ndropped && !gone; q++)
            gone = d->dropped[q] && db_fkey_on_key(&have[k], d->base->name, &ku[q]);
        if (!gone) left[nleft++] = have[k];
    }
    if (db_fkey_remap_own(left, nleft, map, nold, d->base->name, &kept, &nkept, err)) goto out;
    /* a key column's type changed: the constraints over it are checked
     * again (the other tables' over the columns' new numbers) */
    bool *converted = calloc((size_t)d->n + 1, sizeof *converted);
    if (!converted) { attu_error_oom(err); goto out; }
    for (int i = 0; i < d->n; i++) converted[i] = d->cols[i].from < 0 && d->cols[i].orig >= 0;
    int trc = db_fkey_after_type_change(d->s, t, converted, map, nold, kept, nkept, err);
    free(converted);
    if (trc) goto out;
    if (d->nnew_fkeys) {
        if (db_fkey_define(d->s, t, uniques, nu, d->new_fkeys, d->nnew_fkeys, kept, nkept, checks, nchecks, true, out,
                           nout, err))
            goto out;
    } else {
        *out = kept;
        *nout = nkept;
        kept = NULL;
    }
    /* last, as they change other tables: their foreign keys follow the
     * columns (2BP01 before any change), those on a key dropped with
     * CASCADE go */
    if (db_fkey_follow_columns(d->s, d->base->name, map, nold, d->cascade, err)) goto undo;
    for (int q = 0; q < nku && q < d->ndropped; q++)
        if (d->dropped[q] && db_fkey_drop_on_key(d->s, d->base->name, &ku[q], err)) goto undo;
    rc = 0;
    goto out;
undo:
    free(*out);
    *out = NULL;
    *nout = 0;
out:
    free(map);
    free(left);
    free(kept);
    return rc;
}

/* Saves the new version and puts it in the catalog with its DEFAULTs and
 * constraints; the columns it took from base leave base, which is freed. */
static int commit_draft(draft *d, attu_table *base, const attu_check *checks, int nchecks, attu_error *err) {
    attu_session *s = d->s;
    attu_table *t = draft_table(d, err);
    const char **dflt = calloc((size_t)d->n + 1, sizeof *dflt);
    if (!t || !dflt) { detach_table(t); free(dflt); return attu_error_oom(err); }
    for (int i = 0; i < d->n; i++) dflt[i] = d->cols[i].dflt;
    int nkeep = 0;
    attu_unique *keep = NULL;
    if (final_constraints(d, &keep, &nkeep, NULL, err)) { detach_table(t); free(dflt); return -1; }
    attu_fkey *fk = NULL;
    int nfk = 0;
    if (final_fkeys(d, t, keep, nkeep, checks, nchecks, &fk, &nfk, err) ||
        (s->db->data_dir &&
         db_txn_touch(s, t->name, err)) ||
        attu_catalog_set_defaults(db_cat(s), base->name, d->n, dflt, err) ||
        attu_catalog_set_uniques(db_cat(s), base->name, keep, nkeep, err) ||
        attu_catalog_set_checks(db_cat(s), base->name, checks, nchecks, err) ||
        attu_catalog_set_fkeys(db_cat(s), base->name, fk, nfk, err)) {
        detach_table(t);
        free(dflt);
        free(keep);
        free(fk);
        return -1;
    }
    free(dflt);
    free(keep);
    free(fk);
    attu_table *old = attu_catalog_replace(db_cat(s), t);
    /* its indexes follow the columns: one on a dropped column goes, a
     * renamed column's expressions follow its name (db_index.c) */
    int nix = 0;
    attu_catalog_indexes(db_cat(s), t->name, &nix);
    int *map = nix ? malloc(sizeof *map * ((size_t)old->ncols + 1)) : NULL;
    if (map) {
        const char *from = NULL, *to = NULL;
        for (int c = 0; c < old->ncols; c++) map[c] = -1;
        for (int i = 0; i < d->n; i++)
            if (d->cols[i].orig >= 0) {
                map[d->cols[i].orig] = i;
                if (strcmp(d->cols[i].def.name, old->defs[d->cols[i].orig].name)) {
                    from = old->defs[d->cols[i].orig].name;
                    to = d->cols[i].def.name;
                }
            }
        attu_error e2;
        attu_error_clear(&e2);
        db_index_columns_changed(s, t->name, old, map, from, to, &e2);   /* (only out of memory can fail) */
        free(map);
    }
    /* the new version owns every column now: the moved ones are shared
     * with the old version (which a transaction's other catalog may still
     * hold: attu_column_share), the new ones leave the draft */
    for (int i = 0; i < d->n; i++) {
        if (d->cols[i].from >= 0) attu_column_share(old->cols[d->cols[i].from]);
        d->cols[i].from = 0;   /* (no longer the draft's to free) */
        d->cols[i].col = NULL;
    }
    attu_table_free(old);
    return 0;
}

/* RENAME TO: the same columns (moved, device copies and all) under the
 * new name, with the table's DEFAULTs. */
static int rename_table(attu_session *s, attu_table *base, const attu_ast_alter_cmd *cmd, attu_error *err) {
    const char *to = cmd->new_name;
    if (db_relation_exists(s, to))
        return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists", to);
    int nu = 0, nc = 0;
    const attu_unique *u = attu_catalog_uniques(db_cat(s), base->name, &nu);
    const attu_check *cc = attu_catalog_checks(db_cat(s), base->name, &nc);
    int ncols = base->ncols;   /* (base goes before the end) */
    char from[ATTU_NAME_MAX + 1];
    snprintf(from, sizeof from, "%s", base->name);
    attu_fkey *fk = NULL;
    /* the CHECKs go along, the table's name in their text following it */
    attu_check *checks = calloc((size_t)nc + 1, sizeof *checks);
    int nchecks = 0;
    if (!checks) return attu_error_oom(err);
    for (; nchecks < nc; nchecks++) {
        checks[nchecks] = cc[nchecks];
        if (!(checks[nchecks].expr = strdup(cc[nchecks].expr))) { db_check_free(checks, nchecks); return attu_error_oom(err); }
        if (db_check_rename(&checks[nchecks], base->name, to, err)) { db_check_free(checks, nchecks + 1); return -1; }
    }
    attu_view **views = NULL;
    int nviews = 0;
    bool installed = false;
    attu_table *t = calloc(1, sizeof *t);
    char **dflt = calloc((size_t)ncols + 1, sizeof *dflt);
    int rc = -1;
    if (!t || !dflt || !(t->defs = calloc((size_t)base->ncols + 1, sizeof *t->defs)) ||
        !(t->cols = calloc((size_t)base->ncols + 1, sizeof *t->cols))) {
        attu_error_oom(err);
        goto out;
    }
    snprintf(t->name, sizeof t->name, "%s", to);
    t->uid = attu_table_new_uid();   /* (a new version under the new name: no lineage) */
    t->ncols = base->ncols;
    t->nrows = base->nrows;
    t->version = base->version + 1;
    for (int i = 0; i < base->ncols; i++) {
        t->defs[i] = base->defs[i];
        t->cols[i] = base->cols[i];
        const char *d = attu_catalog_default(db_cat(s), base->name, i);
        if (d && !(dflt[i] = strdup(d))) { attu_error_oom(err); goto out; }
    }
    /* the views that read it follow it (their text rewritten, or 0A000),
     * put in place first and put back should the rename fail */
    if (db_view_follow_rename(s, base, -1, to, &views, &nviews, err)) goto out;
    if (nviews && db_view_install(s, views, nviews, err)) {
        for (int i = 0; i < nviews; i++) attu_view_free(views[i]);
        nviews = 0;
        goto out;
    }
    installed = nviews > 0;
    /* its owned sequences follow it (keeping their names, as
     * PostgreSQL's); undone by the caller should the rename fail */
    {
        const char **names = calloc((size_t)ncols + 1, sizeof *names);
        if (!names) { attu_error_oom(err); goto out; }
        for (int i = 0; i < ncols; i++) names[i] = base->defs[i].name;
        int frc = db_sequences_follow_table(s, base->name, to, ncols, names, names, err);
        free(names);
        if (frc) goto out;
    }
    /* the new name's files first, then the old name's go: a crash between
     * leaves both, never neither */
    /* its FOREIGN KEYs go along (one to itself naming the new name), and
     * the other tables' that reference it follow (db_fkey.c) */
    int nf = 0;
    const attu_fkey *fc = attu_catalog_fkeys(db_cat(s), base->name, &nf);
    fk = calloc((size_t)nf + 1, sizeof *fk);
    if (!fk) { attu_error_oom(err); goto out; }
    for (int k = 0; k < nf; k++) {
        fk[k] = fc[k];
        if (!strcmp(fk[k].ref_table, base->name)) snprintf(fk[k].ref_table, sizeof fk[k].ref_table, "%s", to);
    }
    if (s->db->data_dir && (db_txn_touch(s, t->name, err) ||
                            db_txn_touch(s, base->name, err))) {
        db_txn_touch(s, to, NULL);
        goto out;
    }
    if (attu_catalog_add(db_cat(s), t, err)) goto out;
    int nix = 0;
    const attu_index_def *ix = attu_catalog_indexes(db_cat(s), base->name, &nix);
    if (attu_catalog_set_defaults(db_cat(s), to, t->ncols, (const char *const *)dflt, err) ||
        (nu && attu_catalog_set_uniques(db_cat(s), to, u, nu, err)) ||
        (nchecks && attu_catalog_set_checks(db_cat(s), to, checks, nchecks, err)) ||
        (nf && attu_catalog_set_fkeys(db_cat(s), to, fk, nf, err)) ||
        (nix && attu_catalog_set_indexes(db_cat(s), to, ix, nix, err)) ||   /* (its indexes go along) */
        db_matview_renamed(s, base->name, to, err)) {   /* (a materialized view's entry follows its rows) */
        attu_catalog_remove(db_cat(s), to, true, NULL);
        goto out;
    }
    attu_table *old = attu_catalog_remove(db_cat(s), base->name, true, NULL);
    for (int i = 0; i < old->ncols; i++) attu_column_share(old->cols[i]);   /* t's too */
    attu_table_free(old);
    t = NULL;
    rc = db_fkey_follow_rename(s, from, to, err) ? -1 : 0;
    if (!rc) db_comments_renamed(s, 'r', NULL, from, to);
    if (!rc) db_defer_renamed(s, 't', from, to);
    if (!rc && nix) {
        attu_error e2;
        attu_error_clear(&e2);
        db_index_save(s, &e2);   /* (the indexes file names the table: rewritten at COMMIT) */
    }
out:
    if (installed && rc) {
        attu_error e2;
        attu_error_clear(&e2);
        db_view_install(s, views, nviews, &e2);   /* the old views back */
    }
    for (int i = 0; i < nviews; i++) attu_view_free(views[i]);
    free(views);
    detach_table(t);
    for (int i = 0; dflt && i < ncols; i++) free(dflt[i]);
    free(dflt);
    db_check_free(checks, nchecks);
    free(fk);
    return rc;
}

static int store_constraints(attu_session *s, attu_table *base, const attu_unique *u, int nu, const attu_check *c,
                             int nc, const attu_fkey *f, int nf, attu_error *err);

int db_constraints_save(attu_session *s, attu_table *base, const attu_unique *u, int nu, attu_error *err) {
    int nc = 0, nf = 0;
    const attu_check *c = attu_catalog_checks(db_cat(s), base->name, &nc);
    const attu_fkey *f = attu_catalog_fkeys(db_cat(s), base->name, &nf);
    return store_constraints(s, base, u, nu, c, nc, f, nf, err);
}

/* Saves the table's constraints as given (its rows, columns and DEFAULTs
 * as they are) and puts them in the catalog: what RENAME CONSTRAINT and
 * VALIDATE CONSTRAINT change. */
static int store_constraints(attu_session *s, attu_table *base, const attu_unique *u, int nu, const attu_check *c,
                             int nc, const attu_fkey *f, int nf, attu_error *err) {
    const char **dflt = calloc((size_t)base->ncols + 1, sizeof *dflt);
    if (!dflt) return attu_error_oom(err);
    for (int i = 0; i < base->ncols; i++) dflt[i] = attu_catalog_default(db_cat(s), base->name, i);
    int rc = (s->db->data_dir &&
              db_txn_touch(s, base->name, err)) ||
             attu_catalog_set_uniques(db_cat(s), base->name, u, nu, err) ||
             attu_catalog_set_checks(db_cat(s), base->name, c, nc, err) ||
             attu_catalog_set_fkeys(db_cat(s), base->name, f, nf, err)
                 ? -1 : 0;
    free(dflt);
    return rc;
}

/* A copy of the table's constraints of each kind (checks' texts too),
 * for store_constraints; constraints_free frees it. */
typedef struct constraints {
    attu_unique *u;
    attu_check  *c;
    attu_fkey   *f;
    int          nu, nc, nf;
} constraints;

static void constraints_free(constraints *k) {
    free(k->u);
    db_check_free(k->c, k->nc);
    free(k->f);
}

static int constraints_copy(attu_session *s, const char *table, constraints *k, attu_error *err) {
    memset(k, 0, sizeof *k);
    int nu = 0, nc = 0, nf = 0;
    const attu_unique *u = attu_catalog_uniques(db_cat(s), table, &nu);
    const attu_check *c = attu_catalog_checks(db_cat(s), table, &nc);
    const attu_fkey *f = attu_catalog_fkeys(db_cat(s), table, &nf);
    k->u = calloc((size_t)nu + 1, sizeof *k->u);
    k->c = calloc((size_t)nc + 1, sizeof *k->c);
    k->f = calloc((size_t)nf + 1, sizeof *k->f);
    if (!k->u || !k->c || !k->f) { constraints_free(k); return attu_error_oom(err); }
    if (nu) memcpy(k->u, u, sizeof *u * (size_t)nu);
    if (nf) memcpy(k->f, f, sizeof *f * (size_t)nf);
    k->nu = nu;
    k->nf = nf;
    for (; k->nc < nc; k->nc++) {
        k->c[k->nc] = c[k->nc];
        if (!(k->c[k->nc].expr = strdup(c[k->nc].expr))) { constraints_free(k); return attu_error_oom(err); }
    }
    return 0;
}

/* RENAME CONSTRAINT a TO b: any of the table's constraints, the new name
 * free among them (42710); a PRIMARY KEY / UNIQUE constraint's index
 * (which has its name) is renamed with it, as in PostgreSQL, so the name
 * must be free among the relations too (42P07). */
static int rename_constraint(attu_session *s, attu_table *base, const attu_ast_alter_cmd *cmd, attu_error *err) {
    constraints k;
    if (constraints_copy(s, base->name, &k, err)) return -1;
    char *found = NULL, *taken = NULL;
    bool index = false;
    for (int i = 0; i < k.nu; i++) {
        if (k.u[i].index) continue;   /* (a unique index's key: no constraint) */
        if (!strcmp(k.u[i].name, cmd->column)) { found = k.u[i].name; index = true; }
        if (!strcmp(k.u[i].name, cmd->new_name)) taken = k.u[i].name;
    }
    for (int i = 0; i < k.nc; i++) {
        if (!strcmp(k.c[i].name, cmd->column)) found = k.c[i].name;
        if (!strcmp(k.c[i].name, cmd->new_name)) taken = k.c[i].name;
    }
    for (int i = 0; i < k.nf; i++) {
        if (!strcmp(k.f[i].name, cmd->column)) found = k.f[i].name;
        if (!strcmp(k.f[i].name, cmd->new_name)) taken = k.f[i].name;
    }
    int rc = -1;
    if (!found)
        attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "constraint \"%s\" for table \"%s\" does not exist",
                       cmd->column, base->name);
    else if (taken)
        attu_error_set(err, "42710", 0, "constraint \"%s\" for relation \"%s\" already exists", cmd->new_name,
                       base->name);
    else if (index && db_relation_exists(s, cmd->new_name))
        attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists", cmd->new_name);
    else {
        snprintf(found, ATTU_NAME_MAX + 1, "%s", cmd->new_name);
        rc = store_constraints(s, base, k.u, k.nu, k.c, k.nc, k.f, k.nf, err);
        if (!rc) db_comments_renamed(s, 'k', base->name, cmd->column, cmd->new_name);
        if (!rc) db_defer_renamed(s, 'k', cmd->column, cmd->new_name);
    }
    constraints_free(&k);
    return rc;
}

/* VALIDATE CONSTRAINT name, ...: each CHECK / FOREIGN KEY added NOT VALID
 * checked over every row (23514 / 23503 for the first that fails, in
 * PostgreSQL's words), then valid; one valid already is left as it is.
 * 42704 for a name the table has not, 42809 for a PRIMARY KEY / UNIQUE. */
static int validate_constraints(attu_session *s, attu_table *base, const attu_ast_stmt *st, attu_error *err) {
    constraints k;
    if (constraints_copy(s, base->name, &k, err)) return -1;
    int rc = 0;
    bool changed = false;
    for (int i = 0; i < st->u.alter_table.ncmds && !rc; i++) {
        const char *name = st->u.alter_table.cmds[i].column;
        int j;
        for (j = 0; j < k.nc && strcmp(k.c[j].name, name); j++) {}
        if (j < k.nc) {
            if (!k.c[j].not_valid) continue;
            if (base->nrows && db_check_table(s, base, &k.c[j], 1, err)) { rc = -1; break; }
            k.c[j].not_valid = false;
            changed = true;
            continue;
        }
        for (j = 0; j < k.nf && strcmp(k.f[j].name, name); j++) {}
        if (j < k.nf) {
            if (!k.f[j].not_valid) continue;
            if (db_fkey_validate(s, base, &k.f[j], err)) { rc = -1; break; }
            k.f[j].not_valid = false;
            changed = true;
            continue;
        }
        for (j = 0; j < k.nu && strcmp(k.u[j].name, name); j++) {}
        if (j < k.nu)
            rc = attu_error_set(err, "42809", 0, "constraint \"%s\" of relation \"%s\" is not a foreign key or check constraint",
                                name, base->name);
        else
            rc = attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "constraint \"%s\" of relation \"%s\" does not exist",
                                name, base->name);
    }
    if (!rc && changed) rc = store_constraints(s, base, k.u, k.nu, k.c, k.nc, k.f, k.nf, err);
    constraints_free(&k);
    return rc;
}

/* ALTER CONSTRAINT name [NOT] DEFERRABLE [INITIALLY ...], ...: a
 * foreign key's deferral (db_defer.c reads it); 42704 for a name the
 * table has not, 42809 for a CHECK, PRIMARY KEY or UNIQUE constraint, in
 * PostgreSQL's words. */
static int alter_constraints(attu_session *s, attu_table *base, const attu_ast_stmt *st, attu_error *err) {
    constraints k;
    if (constraints_copy(s, base->name, &k, err)) return -1;
    int rc = 0;
    for (int i = 0; i < st->u.alter_table.ncmds && !rc; i++) {
        const attu_ast_alter_cmd *c = &st->u.alter_table.cmds[i];
        int j;
        for (j = 0; j < k.nf && strcmp(k.f[j].name, c->column); j++) {}
        if (j < k.nf) {
            k.f[j].deferrable = c->deferrable;
            k.f[j].initially_deferred = c->initially_deferred;
            continue;
        }
        bool other = false;
        for (j = 0; j < k.nc; j++) other |= !strcmp(k.c[j].name, c->column);
        for (j = 0; j < k.nu; j++) other |= !k.u[j].index && !strcmp(k.u[j].name, c->column);
        if (other)
            rc = attu_error_set(err, "42809", 0, "constraint \"%s\" of relation \"%s\" is not a foreign key constraint",
                                c->column, base->name);
        else
            rc = attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "constraint \"%s\" of relation \"%s\" does not exist",
                                c->column, base->name);
    }
    if (!rc) rc = store_constraints(s, base, k.u, k.nu, k.c, k.nc, k.f, k.nf, err);
    constraints_free(&k);
    return rc;
}

/* What views hold of the table (a view keeps its query as text naming the
 * table and its columns, engine/view.h), before anything changes. As in
 * PostgreSQL, DROP COLUMN of a column a view uses is 2BP01 unless CASCADE
 * drops the view (and the views that read it: *drop, *ndrop), and a type
 * change of such a column is 0A000. RENAME COLUMN rewrites the text of
 * the views that use the column (*renamed: the views to put in place,
 * db_view_follow_rename, which refuses with 0A000 what it cannot rewrite
 * safely); RENAME TO is rename_table's. A column no view uses is free. */
static int view_dependencies(attu_session *s, attu_table *base, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                             char ***drop, int *ndrop, attu_view ***renamed, int *nrenamed, attu_error *err) {
    const attu_views *vs = attu_catalog_views(db_cat(s));
    *drop = NULL;
    *ndrop = 0;
    *renamed = NULL;
    *nrenamed = 0;
    if (!attu_views_count(vs)) return 0;
    int rc = 0;
    for (int i = 0; i < st->u.alter_table.ncmds && !rc; i++) {
        const attu_ast_alter_cmd *c = &st->u.alter_table.cmds[i];
        if (c->kind == ATTU_ALTER_RENAME_COLUMN) {
            int col = attu_table_find_column(base, c->column);
            /* (an unknown column, or a name in use: the rename's own errors) */
            if (col < 0 || attu_table_find_column(base, c->new_name) >= 0) continue;
            if (db_view_follow_rename(s, base, col, c->new_name, renamed, nrenamed, err)) return -1;
            continue;
        }
        if (c->kind != ATTU_ALTER_DROP_COLUMN && c->kind != ATTU_ALTER_TYPE) continue;
        int col = c->column ? attu_table_find_column(base, c->column) : -1;
        if (col < 0) continue;   /* (the action's own error, or a column this statement adds) */
        char **users = NULL;
        int nusers = 0;
        if (db_view_column_users(s, base, col, &users, &nusers, err)) return -1;
        if (!nusers) continue;
        const char *cn = base->defs[col].name;
        if (c->kind == ATTU_ALTER_TYPE) {
            char qv[160];
            db_relation_kind_name(s, users[0], qv, sizeof qv);   /* "view v", "materialized view m" */
            attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "cannot alter type of a column used by a view or rule");
            attu_error_set_detail(err, "rule _RETURN on %s depends on column \"%s\"", qv, cn);
            rc = -1;
        } else if (!c->cascade) {
            /* each view that uses the column, then the views that read it
             * (relations named as PostgreSQL quotes them, the column not) */
            char qt[2 * ATTU_NAME_MAX + 4], qv[160];
            db_quote_ident(base->name, qt, sizeof qt);
            char detail[1024];
            size_t len = 0;
            detail[0] = 0;
            for (int k = 0; k < nusers && len < sizeof detail; k++) {
                db_relation_kind_name(s, users[k], qv, sizeof qv);
                len += (size_t)snprintf(detail + len, sizeof detail - len, "%s%s depends on column %s of table %s",
                                        len ? "\n" : "", qv, cn, qt);
                char **deps = NULL;
                int ndeps = 0;
                attu_error e2;
                attu_error_clear(&e2);
                if (db_view_drop_dependents(s, "view", (const char *const *)&users[k], 1, false, NULL, &deps, &ndeps,
                                            &e2) &&
                    e2.detail[0] && len < sizeof detail)
                    len += (size_t)snprintf(detail + len, sizeof detail - len, "\n%s", e2.detail);
                db_view_names_free(deps, ndeps);
            }
            attu_error_set(err, "2BP01", 0, "cannot drop column %s of table %s because other objects depend on it", cn, qt);
            attu_error_set_detail(err, "%s", detail);
            attu_error_set_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
            rc = -1;
        } else {
            /* CASCADE: the views go with the column */
            char **deps = NULL;
            int ndeps = 0;
            if (db_view_drop_dependents(s, "view", (const char *const *)users, nusers, true, NULL, &deps, &ndeps, err)) {
                rc = -1;
            } else {
                int total = nusers + ndeps;
                char **all = realloc(*drop, sizeof *all * (size_t)(*ndrop + total + 1));
                if (!all) rc = attu_error_oom(err);
                else {
                    *drop = all;
                    for (int k = 0; k < total; k++) {
                        char *name = k < nusers ? users[k] : deps[k - nusers];
                        bool dup = false;
                        for (int j = 0; j < *ndrop && !dup; j++) dup = !strcmp(all[j], name);
                        if (!dup && (all[*ndrop] = strdup(name))) (*ndrop)++;
                    }
                    if (cb && cb->on_notice) {
                        char msg[200];
                        char qv[160];
                        db_relation_kind_name(s, users[0], qv, sizeof qv);
                        if (total == 1) snprintf(msg, sizeof msg, "drop cascades to %s", qv);
                        else snprintf(msg, sizeof msg, "drop cascades to %d other objects", total);
                        cb->on_notice(cb->ctx, "00000", msg);
                    }
                }
            }
            db_view_names_free(deps, ndeps);
        }
        db_view_names_free(users, nusers);
    }
    if (rc) {
        db_view_names_free(*drop, *ndrop);
        *drop = NULL;
        *ndrop = 0;
    }
    return rc;
}

/* Takes the views a DROP COLUMN ... CASCADE drops out of the catalog (and
 * its file): *gone, to free once the ALTER stands or to put back
 * (put_back_views) when it fails. */
static int remove_views(attu_session *s, char **names, int n, attu_view ***gone, attu_error *err) {
    attu_views *vs = attu_catalog_views(db_cat(s));
    attu_view **g = calloc((size_t)n + 1, sizeof *g);
    if (!g) return attu_error_oom(err);
    for (int i = 0; i < n; i++) g[i] = attu_views_remove(vs, names[i]);
    *gone = g;
    if (s->db->data_dir && db_txn_touch_views(s, err)) return -1;
    return 0;
}

static void put_back_views(attu_session *s, attu_view **gone, int n) {
    attu_views *vs = attu_catalog_views(db_cat(s));
    for (int i = 0; i < n; i++) {
        attu_view *old = NULL;
        if (gone[i] && attu_views_put(vs, gone[i], &old)) attu_view_free(gone[i]);   /* (out of memory) */
        attu_view_free(old);
        gone[i] = NULL;
    }
    attu_error e2;
    attu_error_clear(&e2);
    if (s->db->data_dir) db_txn_touch_views(s, &e2);
}

/* The owned sequences follow the columns of the new version: renamed with
 * them, dropped with them (PostgreSQL drops a serial or identity column's
 * sequence with the column). */
static int follow_sequences(draft *d, attu_error *err) {
    const attu_table *b = d->base;
    const char **olds = calloc((size_t)b->ncols + 1, sizeof *olds), **news = calloc((size_t)b->ncols + 1, sizeof *news);
    int rc = olds && news ? 0 : attu_error_oom(err);
    for (int i = 0; !rc && i < b->ncols; i++) {
        olds[i] = b->defs[i].name;
        for (int k = 0; k < d->n && !news[i]; k++)
            if (d->cols[k].orig == i) news[i] = d->cols[k].def.name;
    }
    if (!rc) rc = db_sequences_follow_table(d->s, b->name, b->name, b->ncols, olds, news, err);
    free(olds);
    free(news);
    return rc;
}

/* Whether a DEFAULT is nextval of a sequence (drawn per row). */
static bool draws_sequence(const char *dflt) {
    char *seq = dflt ? db_default_sequence(dflt) : NULL;
    bool r = seq != NULL;
    free(seq);
    return r;
}

int db_exec_alter(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_exec_callbacks *cb,
                  attu_error *err) {
    const char *name = st->u.alter_table.table;
    attu_ast_alter_kind k0 = st->u.alter_table.cmds[0].kind;
    if (k0 == ATTU_ALTER_OWNER || k0 == ATTU_ALTER_SET_SCHEMA) return db_exec_alter_owner(s, st, cb, err);
    if (st->u.alter_table.view) return db_exec_alter_view(s, sql, st, cb, err);
    db_write_lock(s);
    attu_table *base = attu_catalog_lookup(db_cat(s), name);
    if (!base && attu_views_find(attu_catalog_views(db_cat(s)), name)) {
        /* ALTER TABLE of a view: ALTER VIEW's (PostgreSQL's too) */
        pthread_rwlock_unlock(&s->db->lock);
        return db_exec_alter_view(s, sql, st, cb, err);
    }
    if (!base && db_sequence_exists(s, name)) {
        pthread_rwlock_unlock(&s->db->lock);
        return attu_error_set(err, "42809", 0, "\"%s\" is not a table", name);
    }
    if (!base) {
        pthread_rwlock_unlock(&s->db->lock);
        if (!st->u.alter_table.if_exists)
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "relation \"%s\" does not exist", name);
        if (cb && cb->on_notice) {
            char msg[160];
            snprintf(msg, sizeof msg, "relation \"%s\" does not exist, skipping", name);
            cb->on_notice(cb->ctx, "00000", msg);
        }
        return db_deliver_tag(cb, st->u.alter_table.materialized ? "ALTER MATERIALIZED VIEW" : "ALTER TABLE", err) ? -2 : 0;
    }
    int rc = -1;
    draft d;
    memset(&d, 0, sizeof d);
    char **drop_views = NULL;
    int ndrop_views = 0;
    attu_view **gone = NULL, **renamed = NULL;
    int nrenamed = 0;
    bool views_renamed = false;
    db_seq_snapshot *snap = NULL;
    attu_check *checks = NULL;
    int nchecks = 0;
    if (base->unavailable) {
        attu_error_set(err, "XX001", 0, "%s", base->unavailable_reason);
        goto out;
    }
    /* deferred checks wait on its rows (db_defer.c): their copies keep its
     * layout (PostgreSQL's renames do not ask) */
    if (k0 != ATTU_ALTER_RENAME_COLUMN && k0 != ATTU_ALTER_RENAME_TABLE && k0 != ATTU_ALTER_RENAME_CONSTRAINT &&
        db_defer_in_use(s, name, "ALTER TABLE", err))
        goto out;
    if (view_dependencies(s, base, st, cb, &drop_views, &ndrop_views, &renamed, &nrenamed, err)) goto out;
    /* the sequences as they are: a failed statement puts them back (ADD
     * COLUMN ... SERIAL makes one, the others follow their columns) */
    if (!(snap = db_sequences_snapshot(s, err))) goto out;
    if (st->u.alter_table.cmds[0].kind == ATTU_ALTER_RENAME_TABLE) {
        rc = rename_table(s, base, &st->u.alter_table.cmds[0], err);
        goto out;
    }
    if (st->u.alter_table.cmds[0].kind == ATTU_ALTER_RENAME_CONSTRAINT) {
        rc = rename_constraint(s, base, &st->u.alter_table.cmds[0], err);
        goto out;
    }
    /* VALIDATE CONSTRAINT changes no rows: a statement of them alone
     * (with other actions it would check the rows those leave, which
     * attu does not do: 0A000) */
    {
        int nvalidate = 0, nalter = 0;
        for (int i = 0; i < st->u.alter_table.ncmds; i++) {
            attu_ast_alter_kind k = st->u.alter_table.cmds[i].kind;
            nvalidate += k == ATTU_ALTER_VALIDATE_CONSTRAINT;
            nalter += k == ATTU_ALTER_ALTER_CONSTRAINT;
            if (k == ATTU_ALTER_SET_OPTIONS || k == ATTU_ALTER_RESET_OPTIONS) {
                attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, st->u.alter_table.cmds[i].position,
                               "ALTER TABLE ... %s (...) of a table's storage parameters is not supported",
                               k == ATTU_ALTER_SET_OPTIONS ? "SET" : "RESET");
                goto out;
            }
        }
        if (nvalidate == st->u.alter_table.ncmds) {
            rc = validate_constraints(s, base, st, err);
            goto out;
        }
        /* ALTER CONSTRAINT changes no rows either: alone too */
        if (nalter == st->u.alter_table.ncmds) {
            rc = alter_constraints(s, base, st, err);
            goto out;
        }
        if (nalter) {
            attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                           "ALTER CONSTRAINT together with other ALTER TABLE actions is not supported");
            attu_error_set_hint(err, "Run ALTER CONSTRAINT in an ALTER TABLE of its own.");
            goto out;
        }
        if (nvalidate) {
            attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                           "VALIDATE CONSTRAINT together with other ALTER TABLE actions is not supported");
            attu_error_set_hint(err, "Run VALIDATE CONSTRAINT in an ALTER TABLE of its own.");
            goto out;
        }
    }
    d.s = s;
    d.sql = sql;
    d.base = base;
    d.cb = cb;
    d.cap = base->ncols + 4;
    if (!(d.cols = calloc((size_t)d.cap, sizeof *d.cols))) { attu_error_oom(err); goto out; }
    for (int i = 0; i < base->ncols; i++) {
        draft_col *c = &d.cols[d.n++];
        c->def = base->defs[i];
        c->col = base->cols[i];
        c->from = c->orig = i;
        const char *dflt = attu_catalog_default(db_cat(s), base->name, i);
        if (dflt && !(c->dflt = strdup(dflt))) { attu_error_oom(err); goto out; }
        c->identity = db_sequence_identity(s, base->name, base->defs[i].name);
    }
    for (int pass = 0; pass < 6; pass++)
        for (int i = 0; i < st->u.alter_table.ncmds; i++)
            if (pass_of(&st->u.alter_table.cmds[i]) == pass && apply(&d, &st->u.alter_table.cmds[i], err)) goto out;
    /* a column added or retyped to a domain: its values against the
     * domain (db_domain_check.c) */
    for (int i = 0; i < st->u.alter_table.ncmds; i++) {
        const attu_ast_alter_cmd *cmd = &st->u.alter_table.cmds[i];
        bool add = cmd->kind == ATTU_ALTER_ADD_COLUMN;
        attu_domain_def *dd = add || cmd->kind == ATTU_ALTER_TYPE ? db_domain_of_typename(s, add ? &cmd->def.type : &cmd->type) : NULL;
        if (!dd && cmd->kind == ATTU_ALTER_TYPE) {
            /* retyped to an array of a domain ("d[]"): each element */
            char *text = db_domain_column_text(s, &cmd->type);
            size_t len = text ? strlen(text) : 0;
            int k = len > 2 ? find(&d, cmd->column) : -1;
            if (k >= 0) text[len - 2] = 0;
            int bad = k >= 0 && db_domain_check_array_values(s, text, d.cols[k].def.type, d.cols[k].col, base->nrows, err);
            free(text);
            if (bad) goto out;
            continue;
        }
        if (!dd) continue;
        int k = find(&d, add ? cmd->def.name : cmd->column);
        int bad = k >= 0 && db_domain_check_values(s, dd, d.cols[k].def.type, d.cols[k].col, base->nrows, err);
        attu_domain_def_free(dd);
        if (bad) goto out;
    }
    /* the final rows' NOT NULLs and keys. PostgreSQL builds a new index
     * before it scans the table for NOT NULL, unless it rewrites the table
     * (a type change, a serial or identity column), whose NOT NULLs it
     * checks as it writes the rows, rebuilding the indexes after */
    bool rewrite = false;
    for (int i = 0; i < d.n; i++)
        rewrite |= (d.cols[i].from < 0 && d.cols[i].orig >= 0) || (d.cols[i].orig < 0 && draws_sequence(d.cols[i].dflt));
    if (rewrite ? check_not_null(&d, err) || check_keys(&d, err) : check_keys(&d, err) || check_not_null(&d, err)) goto out;
    if (follow_sequences(&d, err)) goto out;
    if (ndrop_views && remove_views(s, drop_views, ndrop_views, &gone, err)) goto out;
    if (nrenamed) {
        if (db_view_install(s, renamed, nrenamed, err)) {
            for (int i = 0; i < nrenamed; i++) attu_view_free(renamed[i]);
            nrenamed = 0;
            goto out;
        }
        views_renamed = true;   /* renamed[] holds the old views now */
    }
    if (final_checks(&d, &checks, &nchecks, err) || commit_draft(&d, base, checks, nchecks, err)) goto out;
    /* a materialized view's own columns follow its rows' */
    for (int i = 0; i < st->u.alter_table.ncmds; i++) {
        const attu_ast_alter_cmd *c = &st->u.alter_table.cmds[i];
        if (c->kind == ATTU_ALTER_RENAME_COLUMN && db_matview_renamed_column(s, name, c->column, c->new_name, err))
            goto out;
    }
    rc = 0;
    /* the comments follow: a renamed column's, a dropped column's or
     * constraint's go */
    for (int i = 0; i < st->u.alter_table.ncmds; i++) {
        const attu_ast_alter_cmd *c = &st->u.alter_table.cmds[i];
        if (c->kind == ATTU_ALTER_RENAME_COLUMN) db_comments_renamed(s, 'c', name, c->column, c->new_name);
        /* a column added or retyped: of its domain now, or of none */
        if (c->kind == ATTU_ALTER_ADD_COLUMN || c->kind == ATTU_ALTER_TYPE) {
            char *dd = db_domain_column_text(s, c->kind == ATTU_ALTER_TYPE ? &c->type : &c->def.type);
            const char *col = c->kind == ATTU_ALTER_TYPE ? c->column : c->def.name;
            attu_comments *cs = db_domain_columns(s, name);
            attu_error e2;
            attu_error_clear(&e2);
            if ((dd || attu_domain_of_column(cs, name, col)) && !attu_domain_set_column(cs, name, col, dd))
                db_txn_touch_comments(s, &e2);
            free(dd);
        }
    }
    db_comments_prune(s, name);
out:
    if (rc) {
        /* nothing changes: the views and sequences as they were */
        if (views_renamed) {
            attu_error e2;
            attu_error_clear(&e2);
            db_view_install(s, renamed, nrenamed, &e2);
        }
        if (gone) put_back_views(s, gone, ndrop_views);
        attu_error e2;
        attu_error_clear(&e2);
        if (snap) db_sequences_restore(s, snap, &e2);
    } else {
        for (int i = 0; gone && i < ndrop_views; i++) {
            /* a materialized view's rows go with it */
            if (gone[i] && gone[i]->kind == 'm') {
                attu_error e2;
                attu_error_clear(&e2);
                if (s->db->data_dir) db_txn_touch(s, gone[i]->name, &e2);
                attu_table_free(attu_catalog_remove(db_cat(s), gone[i]->name, true, NULL));
            }
            if (gone[i]) db_comments_dropped(s, gone[i]->name);
            attu_view_free(gone[i]);
        }
    }
    free(gone);
    for (int i = 0; i < nrenamed; i++) attu_view_free(renamed[i]);
    free(renamed);
    db_view_names_free(drop_views, ndrop_views);
    db_seq_snapshot_free(snap);
    db_check_free(checks, nchecks);
    draft_free(&d);
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    return db_deliver_tag(cb, st->u.alter_table.materialized ? "ALTER MATERIALIZED VIEW" : "ALTER TABLE", err) ? -2 : 0;
}
