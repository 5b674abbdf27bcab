/*
 * db_unique.c - PRIMARY KEY and UNIQUE constraints: naming them at CREATE
 * TABLE, and checking a new version of a table against them.
 *
 * Names follow PostgreSQL's ChooseRelationName: t_pkey for the primary
 * key, t_a_key / t_a_b_key for a unique constraint (the table name and the
 * columns joined by "_", the longer of the two cut until the whole fits 63
 * bytes), and on a clash with any relation (a table, or another
 * constraint: PostgreSQL's indexes are relations) the label gets a number,
 * t_a_key1, t_a_key2. Constraints on the same columns in the same order
 * are one (UNIQUE PRIMARY KEY is the primary key), as PostgreSQL merges
 * them.
 *
 * The checks go through a key index (engine/key_set.h): per constraint,
 * a hash set of the keys of the table's rows, on the host, kept on the
 * table version it describes (attu_table.key_index). The first check of
 * a constraint builds it (one pass over the key columns' host copy, which
 * every table keeps: a table on the GPU is not downloaded); a statement
 * then costs O(its new or changed rows):
 *
 *   - INSERT / COPY (rows appended at first = the old row count): each
 *     new row, in order, is looked up in the index (an old row holds its
 *     key) and in a set of the statement's own rows before it; the first
 *     row found is the one PostgreSQL's row-by-row check stops at.
 *   - UPDATE and ON CONFLICT's final version (rows marked changed): the
 *     same over the changed rows, a hit in the index counting only when
 *     the row it names did not change (its key is still there) or, for
 *     UPDATE (db_unique_check_update), changes after this row (its old
 *     key is still there when PostgreSQL's row-by-row update writes
 *     this one: `SET id = id + 1` fails on 1, 2, 3).
 *   - ON CONFLICT's groups (db_unique_groups): an index hit names the old
 *     row, else the first proposed row with the key.
 *
 * DEFERRABLE constraints take none of this: db_unique_defer.c checks
 * them at the end of the statement or queues them for COMMIT, and they
 * have no key set (their keys need not be unique between statements).
 *
 * The index moves to the new version only once it has replaced the old
 * one in the catalog (db_unique_follow, db_unique_follow_delete, called
 * by INSERT, COPY, UPDATE, DELETE and ON CONFLICT after the swap): the
 * rows appended or changed take their keys, a DELETE renumbers the rest.
 * A statement that fails frees its candidate version and never reaches
 * that point, so the index is never ahead of the table; a writer that
 * does not follow (TRUNCATE, ALTER TABLE) leaves the new version without
 * an index, as a table loaded at start has none; the next check or keyed
 * lookup builds one. A set that moves on logs its changes
 * (engine/key_set_undo.h), and ROLLBACK / ROLLBACK TO undo them and hand
 * it back to the version they restore (db_unique_rollback_index); one
 * whose log was dropped (too many changes) leaves that version without
 * an index, built when next needed. A load into an empty table
 * keeps the statement's own set as the index. Only writers (holding the
 * table's lock) change an index's entries; a keyed SELECT / UPDATE /
 * DELETE (db_key_lookup.c) reads one beside them, or builds the set its
 * version lacks (db_unique_key_find_built: the version's rows never
 * change, so the pass needs no lock), and the sets are attached to a
 * version and taken off it under a lock of their own (index_mu): the
 * lookup holds it to probe, and writers and queries alike attach a set
 * only where none of its columns is yet (attach_set), so a version
 * carries one set a key however many built one at once.
 *
 * The earlier way, a query over the candidate table on whichever backend
 * the database uses, stays for ATTU_UNIQUE_INDEX=off and for when memory
 * for a set runs out:
 *
 *     SELECT r, g FROM (SELECT x.rowid AS r,
 *                              min(x.rowid) OVER (PARTITION BY x.k1, x.k2) AS g,
 *                              count(*) OVER (PARTITION BY x.k1, x.k2) AS n
 *                       FROM t AS x
 *                       JOIN (SELECT DISTINCT k1, k2 FROM t WHERE rowid >= first) AS k
 *                         ON x.k1 = k.k1 AND x.k2 = k.k2) s
 *     WHERE n > 1
 *
 * (a join to the distinct keys the new rows hold, which keeps only the
 * rows that may collide and drops NULL keys, then a sort / partition over
 * those rows' keys; for UPDATE the keys are the changed rows', their
 * numbers joined from a one-column table). Both compare as PostgreSQL's
 * equality of the type: text its bytes (C collation), -0 = 0 and NaN =
 * NaN for floats and numerics, and NULL never collides. The old rows are
 * unique among themselves, so every collision involves a new or changed
 * row. Which row PostgreSQL reports is the first that fails its
 * row-by-row check: for each key, the old rows come first and then the
 * new / changed ones in row order, the second of them fails, and the
 * earliest such row over all constraints is reported (its own key values
 * in DETAIL), the first constraint in creation order on a tie.
 */
#include "db/db_internal.h"
#include "db/db_index.h"
#include "db/db_unique.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/key_set.h"
#include "engine/key_set_undo.h"
#include "engine/strbuf.h"
#include "planner/binder.h"
#include "planner/lexer.h"

/* ---- names --------------------------------------------------------------------------------- */

/* PostgreSQL's makeObjectName: name1[_name2]_label in at most 63 bytes,
 * the longer of name1 and name2 shortened first (at a character
 * boundary). */
static void object_name(const char *name1, const char *name2, const char *label, char *out) {
    size_t n1 = strlen(name1), n2 = name2 ? strlen(name2) : 0, overhead = 0;
    if (name2) overhead++;
    if (label) overhead += strlen(label) + 1;
    size_t avail = ATTU_NAME_MAX - overhead;
    while (n1 + n2 > avail) {
        if (n1 > n2) n1--;
        else n2--;
    }
    /* back to the start of a UTF-8 character */
    while (n1 > 0 && ((unsigned char)name1[n1] & 0xC0) == 0x80) n1--;
    while (name2 && n2 > 0 && ((unsigned char)name2[n2] & 0xC0) == 0x80) n2--;
    size_t k = 0;
    memcpy(out, name1, n1);
    k = n1;
    if (name2) { out[k++] = '_'; memcpy(out + k, name2, n2); k += n2; }
    if (label) { out[k++] = '_'; strcpy(out + k, label); k += strlen(label); }
    out[k] = 0;
}

/* Whether name is taken by a relation: a table, a constraint of the
 * catalog, or one of the n chosen so far for the table being made (whose
 * own name is table). */
void db_object_name(const char *name1, const char *name2, const char *label, char *out) {
    object_name(name1, name2, label, out);
}

static bool name_taken(const attu_catalog *cat, const char *table, const attu_unique *chosen, int n, const char *name) {
    if (!strcmp(name, table) || attu_catalog_lookup(cat, name) || attu_catalog_constraint_owner(cat, name, NULL))
        return true;
    for (int i = 0; i < n; i++)
        if (chosen[i].name[0] && !strcmp(chosen[i].name, name)) return true;
    return false;
}

/* PostgreSQL's ChooseRelationName over ChooseIndexNameAddition. */
static void choose_name(const attu_catalog *cat, const char *table, const attu_column_def *defs, attu_unique *u,
                        const attu_unique *chosen, int n) {
    char add[ATTU_NAME_MAX * 2 + 2] = "";
    size_t len = 0;
    if (!u->primary) {
        for (int j = 0; j < u->ncols; j++) {
            if (len > 0) add[len++] = '_';
            snprintf(add + len, sizeof add - len, "%s", defs[u->cols[j]].name);
            len += strlen(add + len);
            if (len >= ATTU_NAME_MAX + 1) break;
        }
        add[len < ATTU_NAME_MAX + 1 ? len : ATTU_NAME_MAX] = 0;
    }
    const char *label = u->primary ? "pkey" : "key";
    char modlabel[ATTU_NAME_MAX + 1];
    snprintf(modlabel, sizeof modlabel, "%s", label);
    for (int pass = 1;; pass++) {
        object_name(table, u->primary ? NULL : add, modlabel, u->name);
        if (!name_taken(cat, table, chosen, n, u->name)) return;
        snprintf(modlabel, sizeof modlabel, "%s%d", label, pass);
    }
}

int db_unique_define(const attu_catalog *cat, const attu_ast_stmt *st, const attu_column_def *defs, int ncols,
                     attu_unique **out, int *nout, attu_error *err) {
    const char *table = st->u.create_table.table;
    int n = st->u.create_table.nuniques;
    *out = NULL;
    *nout = 0;
    if (!n) return 0;
    attu_unique *all = calloc((size_t)n, sizeof *all);
    bool *named = calloc((size_t)n, sizeof *named);
    attu_unique *fin = calloc((size_t)n, sizeof *fin);
    if (!all || !named || !fin) { free(all); free(named); free(fin); return attu_error_oom(err); }
    int pk = -1;
    for (int i = 0; i < n; i++) {
        const attu_ast_unique_def *d = &st->u.create_table.uniques[i];
        attu_unique *u = &all[i];
        if (d->check || d->fkey) { u->ncols = -1; continue; }   /* a CHECK: db_check.c's */
        u->primary = d->primary;
        u->deferrable = d->deferrable || d->initially_deferred;
        u->initially_deferred = d->initially_deferred;
        if (d->name) snprintf(u->name, sizeof u->name, "%s", d->name);
        named[i] = d->name != NULL;
        if (d->columns.n > ATTU_INDEX_MAX_KEYS) {
            attu_error_set(err, "54011", d->position, "cannot use more than %d columns in an index", ATTU_INDEX_MAX_KEYS);
            goto fail;
        }
        u->ncols = d->columns.n;
        for (int j = 0; j < d->columns.n; j++) {
            int c = -1;
            for (int k = 0; k < ncols && c < 0; k++) if (!strcmp(defs[k].name, d->columns.items[j])) c = k;
            int pos = d->columns.positions ? d->columns.positions[j] : d->position;
            if (c < 0) {
                attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, pos, "column \"%s\" named in key does not exist",
                               d->columns.items[j]);
                goto fail;
            }
            for (int k = 0; k < j; k++)
                if (u->cols[k] == c) {
                    attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_COLUMN, pos, "column \"%s\" appears twice in %s constraint",
                                   defs[c].name, u->primary ? "primary key" : "unique");
                    goto fail;
                }
            u->cols[j] = c;
        }
        if (u->primary) {
            if (pk >= 0) {
                attu_error_set(err, "42P16", d->position, "multiple primary keys for table \"%s\" are not allowed", table);
                goto fail;
            }
            pk = i;
        }
    }
    /* the primary key first, then the others as written, one per key */
    int nf = 0;
    if (pk >= 0) fin[nf++] = all[pk];
    bool *fnamed = calloc((size_t)n, sizeof *fnamed);
    if (!fnamed) { attu_error_oom(err); goto fail; }
    if (pk >= 0) fnamed[0] = named[pk];
    for (int i = 0; i < n; i++) {
        if (i == pk || all[i].ncols < 0) continue;
        int same = -1;
        for (int k = 0; k < nf && same < 0; k++)
            if (fin[k].ncols == all[i].ncols && !memcmp(fin[k].cols, all[i].cols, sizeof(int) * (size_t)all[i].ncols) &&
                fin[k].deferrable == all[i].deferrable && fin[k].initially_deferred == all[i].initially_deferred)
                same = k;   /* (a different deferral: two constraints, as in PostgreSQL) */
        if (same >= 0) {
            if (!fnamed[same] && named[i]) { memcpy(fin[same].name, all[i].name, sizeof fin[same].name); fnamed[same] = true; }
            continue;
        }
        fnamed[nf] = named[i];
        fin[nf++] = all[i];
    }
    /* names in creation order: a given one must be free, a chosen one
     * avoids every name taken so far */
    for (int k = 0; k < nf; k++) {
        if (fnamed[k]) {
            if (name_taken(cat, table, fin, k, fin[k].name)) {
                attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists", fin[k].name);
                free(fnamed);
                goto fail;
            }
        } else choose_name(cat, table, defs, &fin[k], fin, k);
    }
    free(fnamed);
    free(all); free(named);
    *out = fin;
    *nout = nf;
    return 0;
fail:
    free(all); free(named); free(fin);
    return -1;
}

/* ---- checks -------------------------------------------------------------------------------- */

#define ROWID "\"" ATTU_ROWID_INTERNAL "\""

/* Runs the query text against the catalog in which t stands for the table
 * of its name (the candidate version: the caller holds the write lock). */
static attu_result *run_on(attu_session *s, attu_table *t, const char *sql, attu_error *err) {
    attu_parse_result *pr = attu_parse(sql, err);
    if (!pr) return NULL;
    attu_result *res = NULL;
    const attu_ast_stmt *st = pr->n == 1 ? pr->stmts[0].stmt : NULL;
    if (!st || st->kind != ATTU_STMT_SELECT)
        attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "unique check query does not parse");
    else {
        attu_table *old = attu_catalog_replace(db_cat(s), t);
        res = db_run_query(s, sql, st->u.select.query, &db_own_query_params, err);
        if (old && old != t) attu_catalog_replace(db_cat(s), old);
    }
    attu_parse_free(pr);
    if (err->set && err->position) err->position = 0;   /* (positions are in our text, not the user's) */
    return res;
}

/* The key groups of constraint u that hold more than one row: *rows and
 * *groups (n entries, malloc'd) the rows and their group's smallest row.
 * first > 0: only keys some row >= first holds (appended rows);
 * by_changed: only keys some row listed in the table CHANGED_NAME holds
 * (updated rows). */
#define CHANGED_NAME "\001changed"
/* The first row r >= from with changed[r] set, or n. An UPDATE marks a
 * few of a big table's rows: the byte flags are skipped 8 at a time (every
 * loop over them was a pass over the whole table per statement). */
static size_t next_changed(const uint8_t *changed, size_t from, size_t n) {
    size_t r = from;
    for (; r < n && (r & 7); r++)
        if (changed[r]) return r;
    for (; r + 8 <= n; r += 8) {
        uint64_t w;
        memcpy(&w, changed + r, 8);
        if (w) break;
    }
    for (; r < n; r++)
        if (changed[r]) return r;
    return n;
}

/* The rows of t (as x) whose key of u some of the rows in question hold:
 * a join to the distinct keys of those rows (NULLs never join), which are
 * the rows >= first (first > 0), those listed in the table CHANGED_NAME
 * (by_changed), or else every row with no NULL in the key. */
static void put_rows_in_question(attu_strbuf *b, const attu_table *t, const attu_unique *u, size_t first, bool by_changed) {
    attu_strbuf_puts(b, " FROM ");
    attu_strbuf_quote_ident(b, t->name);
    attu_strbuf_puts(b, " AS x");
    if (first == 0 && !by_changed) {
        attu_strbuf_puts(b, " WHERE ");
        for (int j = 0; j < u->ncols; j++) {
            if (j) attu_strbuf_puts(b, " AND ");
            attu_strbuf_puts(b, "x.");
            attu_strbuf_quote_ident(b, t->defs[u->cols[j]].name);
            attu_strbuf_puts(b, " IS NOT NULL");
        }
        return;
    }
    attu_strbuf_puts(b, " JOIN (SELECT DISTINCT ");
    for (int j = 0; j < u->ncols; j++) {
        if (j) attu_strbuf_puts(b, ", ");
        attu_strbuf_puts(b, "y.");
        attu_strbuf_quote_ident(b, t->defs[u->cols[j]].name);
    }
    attu_strbuf_puts(b, " FROM ");
    attu_strbuf_quote_ident(b, t->name);
    attu_strbuf_puts(b, " AS y");
    if (by_changed) attu_strbuf_puts(b, " JOIN \"" CHANGED_NAME "\" AS c ON y." ROWID " = c.\"\001r\")");
    else {
        char num[32];
        snprintf(num, sizeof num, "%zu", first);
        attu_strbuf_puts(b, " WHERE y." ROWID " >= ");
        attu_strbuf_puts(b, num);
        attu_strbuf_puts(b, ")");
    }
    attu_strbuf_puts(b, " AS k ON ");
    for (int j = 0; j < u->ncols; j++) {
        if (j) attu_strbuf_puts(b, " AND ");
        attu_strbuf_puts(b, "x.");
        attu_strbuf_quote_ident(b, t->defs[u->cols[j]].name);
        attu_strbuf_puts(b, " = k.");
        attu_strbuf_quote_ident(b, t->defs[u->cols[j]].name);
    }
}

/* x.k1, x.k2, ... */
static void put_xkeys(attu_strbuf *b, const attu_table *t, const attu_unique *u) {
    for (int j = 0; j < u->ncols; j++) {
        if (j) attu_strbuf_puts(b, ", ");
        attu_strbuf_puts(b, "x.");
        attu_strbuf_quote_ident(b, t->defs[u->cols[j]].name);
    }
}

static int colliding_rows(attu_session *s, attu_table *t, const attu_unique *u, size_t first, bool by_changed,
                          int64_t **rows, int64_t **groups, size_t *n, attu_error *err) {
    attu_strbuf b = { 0 };
    attu_strbuf_puts(&b, "SELECT r, g FROM (SELECT x." ROWID " AS r, min(x." ROWID ") OVER (PARTITION BY ");
    put_xkeys(&b, t, u);
    attu_strbuf_puts(&b, ") AS g, count(*) OVER (PARTITION BY ");
    put_xkeys(&b, t, u);
    attu_strbuf_puts(&b, ") AS n");
    put_rows_in_question(&b, t, u, first, by_changed);
    attu_strbuf_puts(&b, ") s WHERE n > 1");
    if (b.oom) { free(b.p); return attu_error_oom(err); }
    attu_result *res = run_on(s, t, b.p, err);
    free(b.p);
    if (!res) return -1;
    *n = res->nrows;
    *rows = malloc(sizeof **rows * (res->nrows + 1));
    *groups = malloc(sizeof **groups * (res->nrows + 1));
    if (!*rows || !*groups) { free(*rows); free(*groups); attu_result_free(res); return attu_error_oom(err); }
    memcpy(*rows, res->cols[0]->data, sizeof **rows * res->nrows);
    memcpy(*groups, res->cols[1]->data, sizeof **groups * res->nrows);
    attu_result_free(res);
    return 0;
}

typedef struct ranked { int64_t group, order, row; } ranked;

static int by_group_order(const void *a, const void *b) {
    const ranked *x = a, *y = b;
    if (x->group != y->group) return x->group < y->group ? -1 : 1;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    return 0;
}

/* The row that fails first among the colliding ones: per key, unchanged
 * rows first, then changed ones in row order; the second of each key
 * fails; the earliest of those. -1 when none. */
static int64_t first_failing(const int64_t *rows, const int64_t *groups, size_t n, size_t first, const uint8_t *changed,
                             attu_error *err, bool *oom) {
    ranked *r = malloc(sizeof *r * (n + 1));
    if (!r) { *oom = true; attu_error_oom(err); return -1; }
    for (size_t i = 0; i < n; i++) {
        bool ch = changed ? changed[rows[i]] != 0 : (size_t)rows[i] >= first;
        r[i] = (ranked){ groups[i], ch ? rows[i] : -1, rows[i] };
    }
    qsort(r, n, sizeof *r, by_group_order);
    int64_t best = -1;
    for (size_t i = 0; i + 1 < n; i++) {
        if (i > 0 && r[i - 1].group == r[i].group) continue;   /* not the first of its key */
        if (r[i + 1].group != r[i].group || r[i + 1].order < 0) continue;
        if (best < 0 || r[i + 1].row < best) best = r[i + 1].row;
    }
    free(r);
    return best;
}

/* PostgreSQL's quote_identifier: a name that is not all lower-case
 * letters, digits and underscores (not starting with a digit), or that is
 * a keyword other than an unreserved one, is quoted. */
static void put_colname(attu_strbuf *b, const char *name) {
    bool plain = (name[0] >= 'a' && name[0] <= 'z') || name[0] == '_';
    for (const char *p = name; *p && plain; p++)
        plain = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_';
    if (plain && !attu_keyword_needs_quotes(name)) attu_strbuf_puts(b, name);
    else attu_strbuf_quote_ident(b, name);
}

/* "Key (a, b)=(1, x)": the DETAIL's key, row's values of u's columns as
 * PostgreSQL prints them (NULL as null). */
static void put_key(attu_strbuf *b, const attu_table *t, const attu_unique *u, size_t row) {
    attu_strbuf_puts(b, "Key (");
    for (int j = 0; j < u->ncols; j++) {
        if (j) attu_strbuf_puts(b, ", ");
        put_colname(b, t->defs[u->cols[j]].name);
    }
    attu_strbuf_puts(b, ")=(");
    for (int j = 0; j < u->ncols; j++) {
        if (j) attu_strbuf_puts(b, ", ");
        char buf[256];
        const char *lng = NULL;
        size_t len = attu_column_format(t->cols[u->cols[j]], row, buf, sizeof buf - 1, &lng);
        if (len == (size_t)-1) attu_strbuf_puts(b, "null");
        else if (lng) attu_strbuf_add(b, lng, strnlen(lng, len));
        else {
            buf[len < sizeof buf ? len : sizeof buf - 1] = 0;
            attu_strbuf_puts(b, buf);
        }
    }
    attu_strbuf_puts(b, ")");
}

int db_unique_violation(const attu_table *t, const attu_unique *u, size_t row, attu_error *err) {
    attu_strbuf b = { 0 };
    put_key(&b, t, u, row);
    attu_strbuf_puts(&b, " already exists.");
    attu_error_set(err, "23505", 0, "duplicate key value violates unique constraint \"%s\"", u->name);
    attu_error_set_object(err, t->name, NULL, u->name);
    attu_error_set_row(err, row);   /* (COPY's CONTEXT) */
    if (!b.oom) attu_error_set_detail(err, "%s", b.p);
    free(b.p);
    return -1;
}

/* The check as a query (the file's comment), for when no key index
 * serves: ATTU_UNIQUE_INDEX=off, or out of memory for one. */
static int64_t first_meeting_later_old_key(const attu_table *base, const attu_table *t, const attu_unique *u,
                                           const uint8_t *changed, bool *oom);

static int query_check(attu_session *s, attu_table *t, const attu_unique *us, int nu, size_t first, const uint8_t *changed,
                       const attu_table *later, attu_error *err) {
    /* changed rows: their numbers in a one-column table the check joins
     * to, so that only their keys are partitioned (a few rows updated in a
     * large table cost a join, not a sort of the table) */
    attu_table *ch = NULL;
    if (changed) {
        size_t nch = 0;
        for (size_t r = next_changed(changed, 0, t->nrows); r < t->nrows; r = next_changed(changed, r + 1, t->nrows))
            nch++;
        if (!nch) return 0;
        attu_column_def def;
        memset(&def, 0, sizeof def);
        snprintf(def.name, sizeof def.name, "\001r");
        def.type = attu_type_make(ATTU_TYPE_INT64);
        if (!(ch = attu_table_new(CHANGED_NAME, 1, &def, err))) return -1;
        if (attu_column_reserve(ch->cols[0], nch, err) || attu_catalog_add(db_cat(s), ch, err)) {
            attu_table_free(ch);
            return -1;
        }
        int64_t *v = ch->cols[0]->data;
        size_t i = 0;
        for (size_t r = next_changed(changed, 0, t->nrows); r < t->nrows; r = next_changed(changed, r + 1, t->nrows))
            v[i++] = (int64_t)r;
        ch->cols[0]->length = ch->nrows = nch;
    }
    int64_t best = -1;
    int which = -1, rc = 0;
    for (int k = 0; k < nu && !rc; k++) {
        int64_t *rows = NULL, *groups = NULL;
        size_t n = 0;
        if (colliding_rows(s, t, &us[k], changed ? 0 : first, changed != NULL, &rows, &groups, &n, err)) { rc = -1; break; }
        bool oom = false;
        int64_t r = n ? first_failing(rows, groups, n, first, changed, err, &oom) : -1;
        free(rows); free(groups);
        if (!oom && later && changed) {
            int64_t c = first_meeting_later_old_key(later, t, &us[k], changed, &oom);
            if (oom) attu_error_oom(err);
            else if (c >= 0 && (r < 0 || c < r)) r = c;
        }
        if (oom) rc = -1;
        if (r >= 0 && (best < 0 || r < best)) { best = r; which = k; }
    }
    if (ch) attu_table_free(attu_catalog_remove(db_cat(s), CHANGED_NAME, true, NULL));
    if (rc || best < 0) return rc;
    return db_unique_violation(t, &us[which], (size_t)best, err);
}

static int query_groups(attu_session *s, attu_table *t, const attu_unique *u, size_t first, int64_t *out,
                        attu_error *err) {
    for (size_t r = first; r < t->nrows; r++) out[r - first] = -1;
    if (first >= t->nrows) return 0;
    attu_strbuf b = { 0 };
    char num[32];
    snprintf(num, sizeof num, "%zu", first);
    attu_strbuf_puts(&b, "SELECT r, g FROM (SELECT x." ROWID " AS r, min(x." ROWID ") OVER (PARTITION BY ");
    put_xkeys(&b, t, u);
    attu_strbuf_puts(&b, ") AS g");
    /* (first 0: every row is in question, NULL keys left out) */
    put_rows_in_question(&b, t, u, first ? first : 0, false);
    attu_strbuf_puts(&b, ") s WHERE r >= ");
    attu_strbuf_puts(&b, num);
    if (b.oom) { free(b.p); return attu_error_oom(err); }
    attu_result *res = run_on(s, t, b.p, err);
    free(b.p);
    if (!res) return -1;
    const int64_t *rows = res->cols[0]->data, *groups = res->cols[1]->data;
    for (size_t i = 0; i < res->nrows; i++) out[rows[i] - (int64_t)first] = groups[i];
    attu_result_free(res);
    return 0;
}

/* ---- the key index ------------------------------------------------------------------------- */

/* Whether checks use the key index (the default) or the queries above
 * (ATTU_UNIQUE_INDEX=off: a way to compare the two, and the GPU run's
 * check that the query path still holds). */
static bool index_wanted(void) {
    const char *e = getenv("ATTU_UNIQUE_INDEX");
    return !e || (strcmp(e, "off") && strcmp(e, "0"));
}

/* The catalog's version of t's table when t is a new version of it whose
 * first base->nrows rows are base's (a statement's candidate, not yet in
 * the catalog), else NULL. */
attu_table *db_unique_old_version(attu_session *s, const attu_table *t) {
    attu_table *base = attu_catalog_lookup(db_cat(s), t->name);
    if (!base || base == t || base->unavailable || base->ncols != t->ncols || t->nrows < base->nrows) return NULL;
    for (int c = 0; c < t->ncols; c++)
        if (!attu_type_equal(base->defs[c].type, t->defs[c].type)) return NULL;
    return base;
}

static attu_table *indexed_base(attu_session *s, const attu_table *t) {
    return index_wanted() ? db_unique_old_version(s, t) : NULL;
}

/* UPDATE's row-by-row order for the query path: the first changed row r
 * of t whose new key of u a changed row after it held in base (its old
 * key, still there when r is written); -1 when none. A small set of the
 * changed rows' old keys, each naming the last row that held it (base's
 * rows are unique on u). */
static int64_t first_meeting_later_old_key(const attu_table *base, const attu_table *t, const attu_unique *u,
                                           const uint8_t *changed, bool *oom) {
    size_t n = 0;
    for (size_t r = next_changed(changed, 0, base->nrows); r < base->nrows; r = next_changed(changed, r + 1, base->nrows))
        n++;
    if (!n) return -1;
    attu_key_set *olds = attu_key_set_new(base, u->cols, u->ncols, n);
    if (!olds) { *oom = true; return -1; }
    attu_key_rows in_base = { base, 0, NULL };
    uint64_t h;
    for (size_t r = 0; r < base->nrows; r++)
        if (changed[r] && attu_key_hash(base, u->cols, u->ncols, r, &h) && attu_key_set_add(olds, h, (int64_t)r)) {
            attu_key_set_free(olds);
            *oom = true;
            return -1;
        }
    int64_t found = -1;
    for (size_t r = next_changed(changed, 0, base->nrows); r < base->nrows && found < 0;
         r = next_changed(changed, r + 1, base->nrows))
        if (attu_key_hash(t, u->cols, u->ncols, r, &h) && attu_key_set_find(olds, h, &in_base, t, r) > (int64_t)r)
            found = (int64_t)r;
    attu_key_set_free(olds);
    return found;
}

static bool set_serves(const attu_key_set *ks, const attu_table *t, const attu_unique *u) {
    if (ks->ncols != u->ncols || ks->nrows != t->nrows) return false;
    for (int j = 0; j < u->ncols; j++)
        if (ks->cols[j] != u->cols[j] || u->cols[j] >= t->ncols || !attu_type_equal(ks->types[j], t->defs[u->cols[j]].type))
            return false;
    return true;
}

/* The lock under which a key set is attached to a table version or taken
 * off it (the sets' pointers, attu_key_index's array), and under which
 * anyone but the writer that took a version's index off reads that array.
 * Writers of a table hold its table lock (db_lock.c), which keeps other
 * writers off its sets, but only the database's read lock: a query of
 * another session (keyed SELECT, db_key_lookup.c) may probe the same
 * version's set beside them, or attach one it built to it, and does so
 * under this lock. A set's entries change only once it is off the
 * version queries read (db_unique_follow) or before it is on one (built
 * first, then attached); a set on a version is only ever read, and taken
 * off only by the table's writer. */
static pthread_mutex_t index_mu = PTHREAD_MUTEX_INITIALIZER;

/* The set of t's sets (t->key_index) that serves u, or NULL; the caller
 * holds index_mu (a query may attach a set to t beside its writer). */
static attu_key_set *serving_set(const attu_table *t, const attu_unique *u) {
    const attu_key_index *ix = t->key_index;
    for (int i = 0; ix && i < ix->n; i++)
        if (set_serves(ix->sets[i], t, u)) return ix->sets[i];
    return NULL;
}

/* Whether two sets are of the same key columns. */
static bool same_key(const attu_key_set *a, const attu_key_set *b) {
    return a->ncols == b->ncols && !memcmp(a->cols, b->cols, sizeof(int) * (size_t)a->ncols);
}

/* Appends ks to t's sets unless t carries a set of the same columns in
 * step with it already (a query or another check attached one while ks
 * was built: both hold exactly t's keys). Returns the set t keeps: ks,
 * or the one it had (the caller frees ks then); NULL when out of memory
 * (ks not taken). Under index_mu. */
static attu_key_set *attach_set(attu_table *t, attu_key_set *ks) {
    pthread_mutex_lock(&index_mu);
    attu_key_set *kept = NULL;
    attu_key_index *ix = t->key_index;
    for (int i = 0; ix && i < ix->n && !kept; i++)
        if (same_key(ix->sets[i], ks) && ix->sets[i]->nrows == ks->nrows) kept = ix->sets[i];
    if (!kept) {
        if (!ix && (ix = calloc(1, sizeof *ix))) t->key_index = ix;
        attu_key_set **sets = ix ? realloc(ix->sets, sizeof *sets * (size_t)(ix->n + 1)) : NULL;
        if (sets) {
            ix->sets = sets;
            ix->sets[ix->n++] = ks;
            kept = ks;
        }
    }
    pthread_mutex_unlock(&index_mu);
    return kept;
}

/* A set of u's keys over all of base's rows, not attached to anything
 * (one pass over the key columns' host data: no download, as a table's
 * columns always have their host copy); NULL when out of memory. base
 * is a version no one changes (only its key_index moves), so the pass
 * needs no lock. */
static attu_key_set *build_set(const attu_table *base, const attu_unique *u) {
    attu_key_set *ks = attu_key_set_new(base, u->cols, u->ncols, base->nrows);
    if (!ks) return NULL;
    attu_key_rows self = { base, 0, NULL };
    for (size_t r = 0; r < base->nrows; r++) {
        uint64_t h;
        if (!attu_key_hash(base, u->cols, u->ncols, r, &h)) continue;
        /* (the rows are unique; were they not, the smallest row holds) */
        if (attu_key_set_find(ks, h, &self, base, r) >= 0) continue;
        if (attu_key_set_add(ks, h, (int64_t)r)) { attu_key_set_free(ks); return NULL; }
    }
    ks->nrows = base->nrows;
    return ks;
}

/* u's key set over base, in step with it: the one base carries, or one
 * built now and kept on base. NULL when out of memory. The caller holds
 * the write lock (which keeps other writers off base's sets; a query may
 * attach one beside it, hence the lock around the look). */
static attu_key_set *key_set_of(attu_table *base, const attu_unique *u) {
    pthread_mutex_lock(&index_mu);
    attu_key_set *ks = serving_set(base, u);
    pthread_mutex_unlock(&index_mu);
    if (ks) return ks;
    if (!(ks = build_set(base, u))) return NULL;
    attu_key_set *kept = attach_set(base, ks);
    if (kept != ks) attu_key_set_free(ks);
    return kept;
}

attu_key_set *db_unique_key_set(attu_table *t, const attu_unique *u) {
    if (!index_wanted() || t->unavailable) return NULL;
    return key_set_of(t, u);
}

attu_key_set *db_unique_key_set_kept(const attu_table *t, const attu_unique *u) {
    if (!index_wanted() || t->unavailable || u->deferrable) return NULL;
    const attu_key_index *ix = t->key_index;
    for (int i = 0; ix && i < ix->n; i++)
        if (set_serves(ix->sets[i], t, u)) return ix->sets[i];
    return NULL;
}

bool db_unique_key_set_held(const attu_table *t, const attu_unique *u) {
    pthread_mutex_lock(&index_mu);
    bool held = db_unique_key_set_kept(t, u) != NULL;
    pthread_mutex_unlock(&index_mu);
    return held;
}

int db_unique_key_find(const attu_table *t, const attu_unique *u, const attu_table *probe, size_t r, int64_t *row) {
    pthread_mutex_lock(&index_mu);
    const attu_key_set *ks = db_unique_key_set_kept(t, u);
    if (ks) {
        uint64_t h;
        attu_key_rows self = { t, 0, NULL };
        /* (a NULL in the key finds nothing: NULL = x is never true) */
        *row = attu_key_hash(probe, u->cols, u->ncols, r, &h) ? attu_key_set_find(ks, h, &self, probe, r) : -1;
    }
    pthread_mutex_unlock(&index_mu);
    return ks != NULL;
}

/* When a lookup builds the set its version lacks. The build costs about
 * 10 to 20 scans of the table (a hash insert a row against a compare a
 * row; 1.4 s against 70-170 ms at 10M rows, docs/performance.md), so on
 * a large version the first BUILD_AFTER_MISSES lookups scan and the next
 * one builds (the ski rental's rule: a version read by key that often is
 * likely read more, and one that is not, as the version a ROLLBACK of
 * too many changes to undo restores in a loop of such blocks, costs at
 * most about twice what the scans alone did). A small one builds at
 * once: its build costs
 * less than a millisecond. */
enum { BUILD_AFTER_ROWS = 65536, BUILD_AFTER_MISSES = 16 };

/* The builds under way by queries (db_unique_key_find_built): a query
 * that finds one of its version and key under way scans rather than
 * build a second copy beside it. Under index_mu. */
enum { MAX_BUILDS = 8 };
static struct {
    const attu_table *t;
    int               ncols;
    int               cols[ATTU_INDEX_MAX_KEYS];
} builds[MAX_BUILDS];
static int nbuilds;

static int build_at(const attu_table *t, const attu_unique *u) {
    for (int i = 0; i < nbuilds; i++)
        if (builds[i].t == t && builds[i].ncols == u->ncols &&
            !memcmp(builds[i].cols, u->cols, sizeof(int) * (size_t)u->ncols))
            return i;
    return -1;
}

int db_unique_key_find_built(const attu_table *t, const attu_unique *u, const attu_table *probe, size_t r,
                             bool may_build, int64_t *row) {
    int rc = db_unique_key_find(t, u, probe, r, row);
    if (rc || !may_build || !index_wanted() || t->unavailable || u->deferrable || u->ncols > ATTU_INDEX_MAX_KEYS)
        return rc;
    /* claim the build (none under way, room to say so) */
    pthread_mutex_lock(&index_mu);
    bool claimed = !serving_set(t, u) && build_at(t, u) < 0 && nbuilds < MAX_BUILDS;
    /* (a large version: the first lookups scan; key_misses is a cache's
     * counter, hence the cast) */
    if (claimed && t->nrows >= BUILD_AFTER_ROWS && ((attu_table *)t)->key_misses++ < BUILD_AFTER_MISSES)
        claimed = false;
    if (claimed) {
        builds[nbuilds].t = t;
        builds[nbuilds].ncols = u->ncols;
        memcpy(builds[nbuilds].cols, u->cols, sizeof(int) * (size_t)u->ncols);
        nbuilds++;
    }
    pthread_mutex_unlock(&index_mu);
    if (!claimed) return db_unique_key_find(t, u, probe, r, row);   /* (one attached meanwhile, or scan) */
    /* t is a version in a catalog (or a snapshot's): its rows never
     * change, so the pass reads them without a lock, writers beside or
     * not; only its key_index, a cache, is attached to (hence the cast) */
    attu_key_set *ks = build_set(t, u);
    pthread_mutex_lock(&index_mu);
    int at = build_at(t, u);
    builds[at] = builds[--nbuilds];
    pthread_mutex_unlock(&index_mu);
    if (!ks) return 0;   /* (out of memory: the scan) */
    attu_key_set *kept = attach_set((attu_table *)t, ks);
    if (kept != ks) attu_key_set_free(ks);
    /* (a writer that replaced t may take the set off it before this
     * looks: then the scan) */
    return db_unique_key_find(t, u, probe, r, row);
}

/* Whether every row r with changed[r] (below a->nrows) holds in b the key
 * of u it holds in a: the same NULLs and equal values. Then the statement
 * changed no key of u (an UPDATE that sets other columns, or sets a key
 * to itself): u's rows stay as unique as they were and its set as it is. */
static bool keys_kept(const attu_table *a, const attu_table *b, const int *cols, int ncols, const uint8_t *changed) {
    for (size_t r = next_changed(changed, 0, a->nrows); r < a->nrows; r = next_changed(changed, r + 1, a->nrows)) {
        for (int j = 0; j < ncols; j++) {
            bool na = attu_column_is_null(a->cols[cols[j]], r), nb = attu_column_is_null(b->cols[cols[j]], r);
            if (na != nb || (!na && !attu_key_equal(a, r, b, r, &cols[j], 1))) return false;
        }
    }
    return true;
}

/* Hands ks, a set of all of t's keys, to t; 0 when it took it. */
static int keep_set(attu_table *t, attu_key_set *ks) {
    ks->nrows = t->nrows;
    return attach_set(t, ks) == ks ? 0 : -1;
}

/* The check through the key sets of base (t's rows below base->nrows are
 * base's; changed NULL: the rows >= first are appended, first ==
 * base->nrows). Each changed or appended row, in row order, is looked up
 * among the unchanged rows (base's set: a hit on a row that did not
 * change) and among the changed rows before it (a set of their own, of
 * this statement's rows only), which is the row-by-row order the query
 * path replays. 0 no collision, -1 23505 (or an error), 1 no memory for a
 * set (the caller falls back to the query). */
static int index_check(attu_table *base, attu_table *t, const attu_unique *us, int nu, size_t first,
                       const uint8_t *changed, bool later, attu_error *err) {
    size_t lo = changed ? 0 : first, nprobe = 0;
    if (changed) {
        for (size_t r = next_changed(changed, 0, t->nrows); r < t->nrows; r = next_changed(changed, r + 1, t->nrows))
            nprobe++;
        for (size_t r = base->nrows; r < t->nrows; r++)
            if (!changed[r]) return 1;   /* (a row not in base that did not change: not this shape) */
    } else nprobe = t->nrows - first;
    attu_key_rows in_base = { base, 0, NULL }, in_t = { t, 0, NULL };
    int64_t best = -1;
    int which = -1;
    for (int k = 0; k < nu; k++) {
        const attu_unique *u = &us[k];
        /* (no key of u changed: nothing of u to check; the query path
         * finds no group of two either, the old rows being unique) */
        if (changed && t->nrows == base->nrows && keys_kept(base, t, u->cols, u->ncols, changed)) continue;
        /* (later: a row meeting the old key of a row after it fails, so
         * a key kept by every row changes nothing either) */
        attu_key_set *ks = key_set_of(base, u);
        attu_key_set *mine = ks ? attu_key_set_new(t, u->cols, u->ncols, nprobe) : NULL;
        if (!mine) return 1;
        /* a later constraint wins only with an earlier row */
        size_t end = best >= 0 ? (size_t)best : t->nrows;
        for (size_t r = changed ? next_changed(changed, lo, end) : lo; r < end;
             r = changed ? next_changed(changed, r + 1, end) : r + 1) {
            uint64_t h;
            if (!attu_key_hash(t, u->cols, u->ncols, r, &h)) continue;   /* a NULL: no key */
            int64_t g = attu_key_set_find(ks, h, &in_base, t, r);
            /* (later: a changed row after r still holds its old key) */
            bool fails = g >= 0 && (!changed || !changed[g] || (later && g > (int64_t)r));
            if (!fails) fails = attu_key_set_find(mine, h, &in_t, t, r) >= 0;
            if (fails) { best = (int64_t)r; which = k; break; }
            if (attu_key_set_add(mine, h, (int64_t)r)) { attu_key_set_free(mine); return 1; }
        }
        /* rows appended to an empty table (a load): the statement's own
         * set is the new version's whole index, which it carries (freed
         * with it should the statement fail; db_unique_follow keeps it) */
        if (!changed && best < 0 && base->nrows == 0 && !keep_set(t, mine)) continue;
        attu_key_set_free(mine);
    }
    if (best < 0) return 0;
    return db_unique_violation(t, &us[which], (size_t)best, err);
}

static int check_keys(attu_session *s, attu_table *t, size_t first, const uint8_t *changed, bool later,
                      attu_error *err);

int db_unique_check(attu_session *s, attu_table *t, size_t first, const uint8_t *changed, attu_error *err) {
    /* the row-by-row checks first (PostgreSQL's fail at the row), then
     * the deferrable constraints' (at the end of the statement, or queued
     * for COMMIT: db_unique_defer.c) */
    if (db_unique_check_immediate(s, t, first, changed, err)) return -1;
    return db_unique_defer_check(s, t, first, changed, err);
}

int db_unique_check_update(attu_session *s, attu_table *t, const uint8_t *changed, attu_error *err) {
    if (check_keys(s, t, 0, changed, true, err) || db_index_check_rows(s, t, 0, changed, err)) return -1;
    return db_unique_defer_check(s, t, 0, changed, err);
}

int db_unique_check_immediate(attu_session *s, attu_table *t, size_t first, const uint8_t *changed, attu_error *err) {
    /* the keys of the key sets, then the unique indexes a query checks
     * (over expressions, partial, NULLS NOT DISTINCT: db_index.c) */
    if (check_keys(s, t, first, changed, false, err)) return -1;
    return db_index_check_rows(s, t, first, changed, err);
}

static int check_keys(attu_session *s, attu_table *t, size_t first, const uint8_t *changed, bool later,
                      attu_error *err) {
    int nall = 0;
    const attu_unique *all = attu_catalog_uniques(db_cat(s), t->name, &nall);
    if (!nall || (!changed && first >= t->nrows)) return 0;
    /* the NOT DEFERRABLE ones: a deferrable one may hold duplicates
     * between statements, which no key set can describe */
    attu_unique *us = malloc(sizeof *us * (size_t)nall);
    if (!us) return attu_error_oom(err);
    int nu = 0;
    for (int k = 0; k < nall; k++)
        if (!all[k].deferrable) us[nu++] = all[k];
    int rc = 0;
    if (nu) {
        attu_table *base = indexed_base(s, t);
        rc = 1;
        if (base && (changed || first == base->nrows)) rc = index_check(base, t, us, nu, first, changed, later, err);
        if (rc > 0) rc = query_check(s, t, us, nu, first, changed, later && changed ? db_unique_old_version(s, t) : NULL, err);
    }
    free(us);
    return rc;
}

int db_unique_groups(attu_session *s, attu_table *t, const attu_table *extra, const attu_unique *u, size_t first,
                     int64_t *out, attu_error *err) {
    size_t next = extra ? extra->nrows : 0, nprobe = t->nrows - first + next;
    attu_table *base = indexed_base(s, t);
    attu_key_set *ks = base && base->nrows == first ? key_set_of(base, u) : NULL;
    attu_key_set *mine = ks ? attu_key_set_new(t, u->cols, u->ncols, nprobe) : NULL;
    if (mine) {
        /* an old row's key: base's set names its row; else the first
         * probe row that holds it (numbered as if extra followed t) */
        attu_key_rows in_base = { base, 0, NULL }, in_probes = { t, t->nrows, extra };
        for (size_t v = first; v < t->nrows + next; v++) {
            const attu_table *p = v < t->nrows ? t : extra;
            size_t pr = v < t->nrows ? v : v - t->nrows;
            uint64_t h;
            int64_t g = -1;
            if (attu_key_hash(p, u->cols, u->ncols, pr, &h)) {
                g = attu_key_set_find(ks, h, &in_base, p, pr);
                if (g < 0) g = attu_key_set_find(mine, h, &in_probes, p, pr);
                if (g < 0) {
                    if (attu_key_set_add(mine, h, (int64_t)v)) { attu_key_set_free(mine); goto query; }
                    g = (int64_t)v;
                }
            }
            out[v - first] = g;
        }
        attu_key_set_free(mine);
        return 0;
    }
query:
    if (!next) return query_groups(s, t, u, first, out, err);
    /* the query path groups one table: t with extra appended */
    int *map = malloc(sizeof *map * ((size_t)t->ncols + 1));
    if (!map) return attu_error_oom(err);
    for (int c = 0; c < t->ncols; c++) map[c] = c;
    attu_table *k = db_append_rows(t, extra->cols, map, next, err);
    free(map);
    if (!k) return -1;
    int rc = query_groups(s, k, u, first, out, err);
    attu_table_free(k);
    return rc;
}

void db_unique_follow(attu_table *old, attu_table *t, const uint8_t *changed) {
    if (old == t) return;
    /* (off old first: its entries change below, and old is still the
     * version other sessions' queries read) */
    pthread_mutex_lock(&index_mu);
    attu_key_index *ix = old->key_index;
    old->key_index = NULL;
    pthread_mutex_unlock(&index_mu);
    if (!ix) return;
    if (t->nrows < old->nrows || t->ncols != old->ncols) { attu_key_index_free(ix); return; }
    int kept = 0;
    for (int i = 0; i < ix->n; i++) {
        attu_key_set *ks = ix->sets[i];
        bool ok = ks->nrows == old->nrows;
        for (int j = 0; j < ks->ncols && ok; j++)
            ok = ks->cols[j] < t->ncols && attu_type_equal(ks->types[j], t->defs[ks->cols[j]].type);
        /* (t carries its own set of these columns already: index_check's,
         * or one a query built on t once it was in the catalog; looked at
         * under index_mu, as a query may be attaching one now) */
        pthread_mutex_lock(&index_mu);
        for (int k = 0; ok && t->key_index && k < t->key_index->n; k++) ok = !same_key(t->key_index->sets[k], ks);
        pthread_mutex_unlock(&index_mu);
        uint64_t h;
        /* updated rows leave their old keys, then take their new ones
         * (none when the statement kept every key of the set) */
        const uint8_t *moved = changed;
        if (ok && moved && keys_kept(old, t, ks->cols, ks->ncols, moved)) moved = NULL;
        /* (each change logged, for a ROLLBACK to hand the set back to
         * old: db_unique_rollback_index) */
        if (ok) attu_key_undo_mark(ks, old);
        const size_t on = old->nrows;
        if (moved)
            for (size_t r = next_changed(moved, 0, on); r < on && ok; r = next_changed(moved, r + 1, on))
                if (attu_key_hash(old, ks->cols, ks->ncols, r, &h) && attu_key_set_remove(ks, h, (int64_t)r))
                    attu_key_undo_removed(ks, h, (int64_t)r);
        if (moved)
            for (size_t r = next_changed(moved, 0, on); r < on && ok; r = next_changed(moved, r + 1, on))
                if (attu_key_hash(t, ks->cols, ks->ncols, r, &h) && (ok = !attu_key_set_add(ks, h, (int64_t)r)))
                    attu_key_undo_added(ks, h, (int64_t)r);
        for (size_t r = old->nrows; r < t->nrows && ok; r++)
            if (attu_key_hash(t, ks->cols, ks->ncols, r, &h) && (ok = !attu_key_set_add(ks, h, (int64_t)r)))
                attu_key_undo_added(ks, h, (int64_t)r);
        if (!ok) { attu_key_set_free(ks); continue; }   /* (rebuilt when next needed) */
        ks->nrows = t->nrows;
        ix->sets[kept++] = ks;
    }
    ix->n = kept;
    /* t's own sets join the followed ones (one a query attached after
     * the look above, of a followed set's columns, is dropped: the two
     * hold the same keys) */
    pthread_mutex_lock(&index_mu);
    attu_key_index *own = t->key_index;
    t->key_index = ix;
    if (own && own->n) {
        attu_key_set **sets = realloc(ix->sets, sizeof *sets * (size_t)(ix->n + own->n));
        if (sets) {
            ix->sets = sets;
            int nf = ix->n, left = 0;
            for (int k = 0; k < own->n; k++) {
                bool dup = false;
                for (int i = 0; i < nf && !dup; i++) dup = same_key(ix->sets[i], own->sets[k]);
                if (dup) own->sets[left++] = own->sets[k];   /* (freed with own below) */
                else ix->sets[ix->n++] = own->sets[k];
            }
            own->n = left;
        }
    }
    pthread_mutex_unlock(&index_mu);
    attu_key_index_free(own);
}

int db_no_such_table(struct attu_session *s, const char *name, int position, attu_error *err) {
    if (attu_catalog_constraint_owner(db_cat(s), name, NULL))
        return attu_error_set(err, "42809", position, "\"%s\" is an index", name);
    return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, position, "relation \"%s\" does not exist", name);
}

void db_unique_choose_name(const attu_catalog *cat, const char *table, const attu_column_def *defs, attu_unique *u,
                           const attu_unique *chosen, int n) {
    choose_name(cat, table, defs, u, chosen, n);
}

bool db_unique_name_taken(const attu_catalog *cat, const char *table, const attu_unique *chosen, int n, const char *name) {
    return name_taken(cat, table, chosen, n, name);
}

int db_unique_check_index(struct attu_session *s, attu_table *t, const attu_unique *us, int nu, attu_error *err) {
    for (int k = 0; k < nu; k++) {
        int64_t *rows = NULL, *groups = NULL;
        size_t n = 0;
        if (colliding_rows(s, t, &us[k], 0, false, &rows, &groups, &n, err)) return -1;
        /* the key that appears first in the table (PostgreSQL names the
         * first duplicate its sort meets) */
        int64_t row = -1;
        for (size_t i = 0; i < n; i++)
            if (row < 0 || groups[i] < row) row = groups[i];
        free(rows);
        free(groups);
        if (row < 0) continue;
        attu_strbuf b = { 0 };
        put_key(&b, t, &us[k], (size_t)row);
        attu_strbuf_puts(&b, " is duplicated.");
        attu_error_set(err, "23505", 0, "could not create unique index \"%s\"", us[k].name);
        if (!b.oom) attu_error_set_detail(err, "%s", b.p);
        free(b.p);
        return -1;
    }
    return 0;
}

/* Few deleted rows (a keyed DELETE): a kept row's new number is its old
 * one less the deleted rows before it, found by a binary search of the
 * short sorted list, so renumbering the sets' slots reads no table-sized
 * array at random. */
enum { FEW_DELETED = 256 };

static int64_t renumber_few(const int64_t *gone, size_t ngone, int64_t r) {
    size_t lo = 0, hi = ngone;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (gone[mid] < r) lo = mid + 1;
        else hi = mid;
    }
    return r - (int64_t)lo;
}

void db_unique_follow_delete(attu_table *old, attu_table *t, const uint8_t *keep) {
    if (old == t) return;
    pthread_mutex_lock(&index_mu);   /* (as db_unique_follow) */
    attu_key_index *ix = old->key_index;
    old->key_index = NULL;
    pthread_mutex_unlock(&index_mu);
    if (!ix) return;
    int64_t gone[FEW_DELETED];
    size_t ngone = 0, kept_rows = 0;
    for (size_t r = 0; r < old->nrows; r++) {
        if (keep[r]) kept_rows++;
        else if (ngone <= FEW_DELETED) {
            if (ngone < FEW_DELETED) gone[ngone] = (int64_t)r;
            ngone++;
        }
    }
    /* newrow[r]: row r's number in t (kept rows only), when many went */
    int64_t *newrow = NULL;
    if (ngone > FEW_DELETED && (newrow = malloc(sizeof *newrow * (old->nrows + 1)))) {
        size_t k = 0;
        for (size_t r = 0; r < old->nrows; r++) newrow[r] = keep[r] ? (int64_t)k++ : -1;
    }
    if ((ngone > FEW_DELETED && !newrow) || kept_rows != t->nrows || t->ncols != old->ncols) {
        free(newrow);
        attu_key_index_free(ix);
        return;
    }
    int kept = 0;
    for (int i = 0; i < ix->n; i++) {
        attu_key_set *ks = ix->sets[i];
        bool ok = ks->nrows == old->nrows;
        for (int j = 0; j < ks->ncols && ok; j++)
            ok = ks->cols[j] < t->ncols && attu_type_equal(ks->types[j], t->defs[ks->cols[j]].type);
        if (!ok) { attu_key_set_free(ks); continue; }
        attu_key_undo_mark(ks, old);   /* (as db_unique_follow) */
        uint64_t h;
        for (size_t r = 0; r < old->nrows; r++)
            if (!keep[r] && attu_key_hash(old, ks->cols, ks->ncols, r, &h) && attu_key_set_remove(ks, h, (int64_t)r))
                attu_key_undo_removed(ks, h, (int64_t)r);
        /* (the rows gone: the short list when few went, else from keep) */
        if (ngone <= FEW_DELETED) attu_key_undo_renumbered(ks, gone, ngone);
        else attu_key_undo_renumbered_keep(ks, keep, old->nrows);
        /* (renumbering keeps each entry in its slot: its hash is its key's) */
        if (newrow) {
            for (size_t j = 0; j <= ks->mask; j++)
                if (ks->rows[j] >= 0) ks->rows[j] = newrow[ks->rows[j]];
        } else if (ngone == 1) {
            /* one row gone (a point DELETE): the rows after it move down
             * one, a branch-free pass the compiler vectorizes (an empty
             * slot's -1 is below every row and stays) */
            int64_t g = gone[0], *rows = ks->rows;
            for (size_t j = 0; j <= ks->mask; j++) rows[j] -= rows[j] > g;
        } else if (ngone) {
            for (size_t j = 0; j <= ks->mask; j++)
                if (ks->rows[j] >= 0) ks->rows[j] = renumber_few(gone, ngone, ks->rows[j]);
        }
        ks->nrows = t->nrows;
        ix->sets[kept++] = ks;
    }
    free(newrow);
    ix->n = kept;
    pthread_mutex_lock(&index_mu);
    attu_key_index *own = t->key_index;
    t->key_index = ix;
    pthread_mutex_unlock(&index_mu);
    attu_key_index_free(own);
}

/* ---- ROLLBACK: the sets back to the versions it restores ---------------------------------- */

void db_unique_rollback_index(attu_table *from, attu_table *to) {
    if (!from || !to || from == to) return;
    /* the sets of from that can go back to `to` (their logs hold its
     * mark) come off from, the others stay. Looked at under index_mu, as
     * from may be a version others read (the working catalog's version
     * of a table another session committed since, after a COMMIT's
     * rebase failed): a set's log changes only while the set is off
     * every version, so one on from holds still while the lock is held. */
    attu_key_set *back[16], **taken = back;   /* (more sets than that: malloc'd) */
    int ntaken = 0;
    pthread_mutex_lock(&index_mu);
    attu_key_index *ix = from->key_index;
    int n = ix ? ix->n : 0;
    if (n > (int)(sizeof back / sizeof *back)) taken = malloc(sizeof *taken * (size_t)n);
    if (ix && taken) {
        int left = 0;
        for (int i = 0; i < n; i++) {
            if (attu_key_undo_has(ix->sets[i], to)) taken[ntaken++] = ix->sets[i];
            else ix->sets[left++] = ix->sets[i];
        }
        ix->n = left;
    }
    pthread_mutex_unlock(&index_mu);
    for (int i = 0; i < ntaken; i++) {
        attu_key_set *ks = taken[i];
        if (attu_key_undo_to(ks, to) <= 0 || ks->nrows != to->nrows) { attu_key_set_free(ks); continue; }
        /* exact for `to` again: attached unless a query of another
         * session built one for it meanwhile (to may be the committed
         * version, read beside us) */
        attu_key_set *kept = attach_set(to, ks);
        if (kept != ks) attu_key_set_free(ks);
    }
    if (taken != back) free(taken);
}

void db_unique_rollback_catalog(const attu_catalog *work, const attu_catalog *target) {
    if (!work || !target) return;
    size_t n = attu_catalog_count(work);
    for (size_t i = 0; i < n; i++) {
        attu_table *w = attu_catalog_at(work, i);
        if (w) db_unique_rollback_index(w, attu_catalog_lookup(target, w->name));
    }
}

void db_unique_forget_undo(attu_table *t) {
    if (!t) return;
    /* (under index_mu: t may be a version others read, and a query may
     * be attaching a set to it) */
    pthread_mutex_lock(&index_mu);
    attu_key_index *ix = t->key_index;
    for (int i = 0; ix && i < ix->n; i++) attu_key_undo_forget(ix->sets[i]);
    pthread_mutex_unlock(&index_mu);
}

void db_unique_forget_changed(const attu_catalog *work, const attu_catalog *base) {
    if (!work) return;
    size_t n = attu_catalog_count(work), nb = base ? attu_catalog_count(base) : 0;
    for (size_t i = 0; i < n; i++) {
        attu_table *w = attu_catalog_at(work, i);
        /* (a version base holds too, at the same place in name order or
         * elsewhere, was not changed) */
        if (!w || (i < nb && attu_catalog_at(base, i) == w) || (base && attu_catalog_lookup(base, w->name) == w))
            continue;
        db_unique_forget_undo(w);
    }
}
