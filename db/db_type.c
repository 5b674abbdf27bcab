/*
 * db_type.c - enum types: CREATE TYPE name AS ENUM (...), DROP TYPE,
 * ALTER TYPE ... ADD VALUE / RENAME VALUE / RENAME TO, as PostgreSQL 15.
 *
 * A type's definition lives in the catalog's comments store
 * (engine/enum_type.h says why there): a statement here changes the
 * working catalog's store under the write lock and marks the comments
 * file for COMMIT (db_txn_touch_comments), so a ROLLBACK forgets it and a
 * COMMIT keeps it in the data directory. Columns refer to a type by its
 * id (attu_type_enum_id), which RENAME TO keeps; RENAME VALUE rewrites
 * the stored values of the label, whose images hold it.
 */
#include "db/db_internal.h"
#include "db/db_unique.h"
#include "db/db_domain_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/array.h"
#include "engine/comments.h"
#include "engine/dictionary.h"
#include "engine/table_rewrite.h"
#include "engine/enum_type.h"
#include "engine/view.h"

static void notice(const attu_exec_callbacks *cb, const char *sqlstate, const char *fmt, const char *a) {
    if (!cb || !cb->on_notice) return;
    char msg[256];
    snprintf(msg, sizeof msg, fmt, a);
    cb->on_notice(cb->ctx, sqlstate, msg);
}

static int no_type(const char *name, int pos, attu_error *err) {
    return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_OBJECT, pos, "type \"%s\" does not exist", name);
}

static int check_label(const char *label, attu_error *err) {
    if (strlen(label) <= ATTU_ENUM_LABEL_MAX) return 0;
    attu_error_set(err, "42602", 0, "invalid enum label \"%s\"", label);
    attu_error_set_detail(err, "Labels must be %d bytes or less.", ATTU_ENUM_LABEL_MAX);
    return -1;
}

/* Whether a column of type t holds values of the enum id: one of the
 * enum, or an array of it (engine/types.h). */
static bool holds_enum(attu_type t, int id) {
    if (attu_type_is_array(t)) t = attu_type_array_elem(t);
    return attu_type_is_enum(t) && attu_type_enum_id(t) == id;
}

/* The first column (of a table or a view) of type id: 1 with its names,
 * else 0. */
static int first_user(attu_session *s, int id, char *what, size_t cap) {
    attu_catalog *cat = db_cat(s);
    for (size_t i = 0; i < attu_catalog_count(cat); i++) {
        const attu_table *t = attu_catalog_at(cat, i);
        for (int k = 0; k < t->ncols; k++)
            if (holds_enum(t->defs[k].type, id)) {
                snprintf(what, cap, "column %s of table %s", t->defs[k].name, t->name);
                return 1;
            }
    }
    attu_views *vs = attu_catalog_views(cat);
    for (size_t i = 0; vs && i < attu_views_count(vs); i++) {
        const attu_view *v = attu_views_at(vs, i);
        for (int k = 0; k < v->ncols; k++)
            if (holds_enum(v->col_types[k], id)) {
                snprintf(what, cap, "%s %s", v->kind == 'm' ? "materialized view" : "view", v->name);
                return 1;
            }
    }
    return 0;
}

/* The type name's place is taken: by a type or by a relation (whose row
 * type PostgreSQL names alike). */
static int name_taken(attu_session *s, const char *name, int pos, attu_error *err) {
    bool d = db_type_name_used(s, name);   /* (an enum type or a domain) */
    bool rel = db_relation_exists(s, name);
    if (!d && !rel) return 0;
    attu_error_set(err, "42710", pos, "type \"%s\" already exists", name);
    if (rel && !d)
        attu_error_set_hint(err, "A relation has an associated type of the same name, so you must use a name that "
                                 "doesn't conflict with any existing type.");
    return -1;
}

static int create_enum(attu_session *s, const attu_ast_stmt *st, attu_error *err) {
    const char *name = st->u.type_stmt.name;
    const attu_ast_name_list *l = &st->u.type_stmt.labels;
    attu_comments *cs = attu_catalog_comments(db_cat(s));
    if (name_taken(s, name, 0, err)) return -1;
    if (strlen(name) > 63) return attu_error_set(err, "42622", 0, "type name \"%s\" is too long", name);
    for (int i = 0; i < l->n; i++) {
        if (check_label(l->items[i], err)) return -1;
        for (int j = 0; j < i; j++)
            if (!strcmp(l->items[i], l->items[j])) {
                attu_error_set(err, "23505", 0, "duplicate key value violates unique constraint \"pg_enum_typid_label_index\"");
                attu_error_set_detail(err, "Key (enumtypid, enumlabel)=(%u, %s) already exists.",
                                      attu_enum_oid(attu_enum_next_id(cs)), l->items[i]);
                return -1;
            }
    }
    attu_enum_def d = { (char *)name, attu_enum_next_id(cs), l->n, NULL };
    char **keys = calloc((size_t)l->n + 1, sizeof *keys);
    d.labels = calloc((size_t)l->n + 1, sizeof *d.labels);
    int rc = 0;
    if (!keys || !d.labels || attu_enum_keys_initial(l->n, keys)) rc = attu_error_oom(err);
    for (int i = 0; !rc && i < l->n; i++) {
        d.labels[i].label = l->items[i];
        d.labels[i].key = keys[i];
        d.labels[i].order = (float)(i + 1);
    }
    if (!rc && attu_enum_store(cs, &d)) rc = attu_error_oom(err);
    for (int i = 0; keys && i < l->n; i++) free(keys[i]);
    free(keys);
    free(d.labels);
    return rc;
}

static int drop_types(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    const attu_ast_name_list *l = &st->u.type_stmt.labels;
    attu_comments *cs = attu_catalog_comments(db_cat(s));
    /* every name checked before any type goes */
    for (int i = 0; i < l->n; i++) {
        attu_enum_def *d = attu_enum_find_in(cs, l->items[i]);
        if (!d) {
            if (st->u.type_stmt.if_exists) continue;
            attu_type bt;
            attu_error e2;
            attu_error_clear(&e2);
            /* a built-in type: PostgreSQL's 2BP01 (the system depends on it) */
            if (!attu_type_from_name(l->items[i], -1, -1, &bt, &e2)) {
                attu_error_set(err, "2BP01", 0, "cannot drop type %s because it is required by the database system", l->items[i]);
                return -1;
            }
            return no_type(l->items[i], 0, err);
        }
        char what[200];
        int used = first_user(s, d->id, what, sizeof what);
        if (used) {
            if (st->u.type_stmt.cascade)   /* (columns are gone by now: cascade_columns; a view's is left) */
                attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                               "DROP TYPE ... CASCADE of a type in use is not supported (%s depends on type %s)", what, d->name);
            else {
                attu_error_set(err, "2BP01", 0, "cannot drop type %s because other objects depend on it", d->name);
                attu_error_set_detail(err, "%s depends on type %s", what, d->name);
                attu_error_set_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
            }
            attu_enum_def_free(d);
            return -1;
        }
        attu_enum_def_free(d);
    }
    for (int i = 0; i < l->n; i++) {
        attu_enum_def *d = attu_enum_find_in(cs, l->items[i]);
        if (!d) {
            notice(cb, "00000", "type \"%s\" does not exist, skipping", l->items[i]);
            continue;
        }
        attu_enum_remove(cs, l->items[i]);
        attu_enum_def_free(d);
    }
    return 0;
}

/* PostgreSQL's float4 enumsortorder of a label put at index at of d's
 * labels (before the others move): AddEnumLabel's rule, renumbering the
 * others 1..n when the midpoint meets a neighbour. */
static float pg_order(attu_enum_def *d, int at, int where) {
    if (!where) return d->n ? d->labels[d->n - 1].order + 1 : 1;
    for (;;) {
        int nbr = where < 0 ? at : at - 1, other = where < 0 ? at - 1 : at;
        if (other < 0) return d->labels[nbr].order - 1;
        if (other >= d->n) return d->labels[nbr].order + 1;
        float mid = (d->labels[nbr].order + d->labels[other].order) / 2;
        if (mid != d->labels[nbr].order && mid != d->labels[other].order) return mid;
        for (int i = 0; i < d->n; i++) d->labels[i].order = (float)(i + 1);
    }
}

static int add_value(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err, bool *skipped) {
    attu_comments *cs = attu_catalog_comments(db_cat(s));
    const char *label = st->u.type_stmt.label, *nbr = st->u.type_stmt.nbr;
    attu_enum_def *d = attu_enum_find_in(cs, st->u.type_stmt.name);
    if (!d) return no_type(st->u.type_stmt.name, 0, err);   /* (PostgreSQL gives no position) */
    int rc = 0;
    if (attu_enum_label_index(d, label, strlen(label)) >= 0) {
        if (st->u.type_stmt.if_exists) {
            notice(cb, "42710", "enum label \"%s\" already exists, skipping", label);
            *skipped = true;
        } else
            rc = attu_error_set(err, "42710", 0, "enum label \"%s\" already exists", label);
        attu_enum_def_free(d);
        return rc;
    }
    if (check_label(label, err)) { attu_enum_def_free(d); return -1; }
    int at = d->n, where = st->u.type_stmt.where;
    if (where) {
        int k = attu_enum_label_index(d, nbr, strlen(nbr));
        if (k < 0) {
            attu_enum_def_free(d);
            return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "\"%s\" is not an existing enum label", nbr);
        }
        at = where < 0 ? k : k + 1;
    }
    attu_enum_label *nl = realloc(d->labels, (size_t)(d->n + 1) * sizeof *nl);
    if (!nl) { attu_enum_def_free(d); return attu_error_oom(err); }
    d->labels = nl;
    float order = pg_order(d, at, where);
    char *key = attu_enum_key_between(at > 0 ? d->labels[at - 1].key : NULL, at < d->n ? d->labels[at].key : NULL);
    char *lab = strdup(label);
    if (!key || !lab) {
        free(key); free(lab); attu_enum_def_free(d);
        return attu_error_oom(err);
    }
    memmove(&d->labels[at + 1], &d->labels[at], (size_t)(d->n - at) * sizeof *d->labels);
    d->labels[at].label = lab;
    d->labels[at].key = key;
    d->labels[at].order = order;
    d->n++;
    if (attu_enum_store(cs, d)) rc = attu_error_oom(err);
    attu_enum_def_free(d);
    return rc;
}

/* Whether image s[0..len) is of the label from[0..fl). */
static bool image_of(const char *s, size_t len, const char *from, size_t fl) {
    size_t ll;
    const char *lab = attu_enum_image_label(s, len, &ll);
    return ll == fl && !memcmp(lab, from, fl);
}

/* The array s[0..len) of enum elem with its elements of label from made
 * img, into out (engine/array.h: each element put again, then the shape);
 * *hit whether any was. -1: out of memory. */
static int relabel_array(attu_type elem, const char *s, size_t len, const char *from, const char *img, size_t il,
                         attu_abuf *out, bool *hit) {
    size_t fl = strlen(from);
    attu_abuf raw = { 0 };
    attu_array_iter it;
    attu_array_shape sh;
    attu_slot v;
    int rc = attu_abuf_put(&raw, "", 0);
    *hit = false;
    attu_array_iter_init(&it, elem, s, len);
    while (!rc && attu_array_next(&it, &v) == 1) {
        if (!v.null && image_of(v.v.s, v.len, from, fl)) {
            v.v.s = img;
            v.len = (uint32_t)il;
            *hit = true;
        }
        rc = attu_array_put(&raw, elem, &v);
    }
    attu_array_iter_done(&it);
    attu_array_get_shape(elem, s, len, &sh);
    out->len = 0;
    if (!rc) rc = attu_array_finish(elem, raw.p, raw.len, &sh, out);
    attu_abuf_free(&raw);
    return rc;
}

/* The new values of column col (of d's enum or an array of it) where
 * label from is renamed to image img: vals[0..*nvals) (malloc'd, the
 * caller frees each) and src[r] the value row r takes, -1 for none. */
static int relabel_column(const attu_column *col, attu_type t, size_t nrows, const char *from, const char *img,
                          size_t il, int64_t *src, char ***vals, size_t **lens, size_t *nvals) {
    size_t fl = strlen(from);
    int32_t n = col->dict ? col->dict->count : 0;
    int64_t *of_code = malloc((size_t)(n ? n : 1) * sizeof *of_code);
    *vals = calloc((size_t)(n ? n : 1), sizeof **vals);
    *lens = calloc((size_t)(n ? n : 1), sizeof **lens);
    *nvals = 0;
    if (!of_code || !*vals || !*lens) { free(of_code); return -1; }
    bool arr = attu_type_is_array(t);
    attu_type elem = arr ? attu_type_array_elem(t) : t;
    for (int32_t code = 0; code < n; code++) {   /* each distinct value once */
        size_t len;
        const char *sv = attu_dictionary_get(col->dict, code, &len);
        of_code[code] = -1;
        if (!arr) {
            if (!image_of(sv, len, from, fl)) continue;
            if (!((*vals)[*nvals] = malloc(il ? il : 1))) { free(of_code); return -1; }
            memcpy((*vals)[*nvals], img, il);
            (*lens)[*nvals] = il;
        } else {
            attu_abuf a = { 0 };
            bool hit;
            if (relabel_array(elem, sv, len, from, img, il, &a, &hit)) { attu_abuf_free(&a); free(of_code); return -1; }
            if (!hit) { attu_abuf_free(&a); continue; }
            (*vals)[*nvals] = a.p ? a.p : strdup("");   /* ('{}' is the empty string) */
            (*lens)[*nvals] = a.len;
            if (!(*vals)[*nvals]) { free(of_code); return -1; }
        }
        of_code[code] = (int64_t)(*nvals)++;
    }
    for (size_t r = 0; r < nrows; r++)
        src[r] = attu_column_is_null(col, r) || !col->dict ? -1 : of_code[((const int32_t *)col->data)[r]];
    free(of_code);
    return 0;
}

/* The stored values of label k of d, in every table column of d's type
 * or of an array of it, rewritten to the image of label k as d now has
 * it (RENAME VALUE: a value's image holds its label, engine/enum_type.h).
 * from: the old label. Each table changed gets a new version, as UPDATE
 * makes one. */
static int rewrite_label(attu_session *s, const attu_enum_def *d, int k, const char *from, attu_error *err) {
    attu_catalog *cat = db_cat(s);
    size_t il;
    char *img = attu_enum_image(d, k, &il);
    if (!img) return attu_error_oom(err);
    int rc = 0;
    for (size_t i = 0; !rc && i < attu_catalog_count(cat); i++) {
        /* (each column's rewrite replaces the table: its name is kept
         * and the latest version looked up) */
        char name[ATTU_NAME_MAX + 1];
        snprintf(name, sizeof name, "%s", attu_catalog_at(cat, i)->name);
        int ncols = attu_catalog_at(cat, i)->ncols;
        for (int c = 0; !rc && c < ncols; c++) {
            const attu_table *t = attu_catalog_lookup(cat, name);
            if (!t || !holds_enum(t->defs[c].type, d->id)) continue;
            const attu_column *col = t->cols[c];
            int64_t *src = malloc((t->nrows ? t->nrows : 1) * sizeof *src);
            uint8_t *changed = malloc(t->nrows ? t->nrows : 1);
            char **vals = NULL;
            size_t *lens = NULL, nvals = 0;
            attu_column *v = NULL;
            attu_dictionary *dict = NULL;
            int32_t *codes = NULL, moved = 0, *remap = NULL;
            if (!src || !changed ||
                relabel_column(col, t->defs[c].type, t->nrows, from, img, il, src, &vals, &lens, &nvals))
                goto oom;
            if (nvals) {
                if (!(codes = malloc(nvals * sizeof *codes)) || !(v = attu_column_new(t->defs[c].type, nvals, err)) ||
                    !(dict = attu_dictionary_add(NULL, (const char *const *)vals, lens, nvals, codes, &moved, &remap, err)))
                    goto oom;
                free(remap);
                v->dict = dict;
                memcpy(v->data, codes, nvals * sizeof *codes);
                v->length = nvals;
                for (size_t r = 0; r < t->nrows; r++) changed[r] = src[r] >= 0;
                int cols[1] = { c };
                attu_table *nt = attu_table_update_rows(t, src, 1, cols, &v, err);
                if (!nt || db_save_table(s, nt, err)) { attu_table_free(nt); rc = -1; }
                else {
                    attu_table *old = attu_catalog_replace(cat, nt);
                    db_unique_follow(old, nt, changed);
                    db_cursors_follow(s, old, nt, NULL);
                    attu_table_free(old);
                }
            }
            if (0) {
            oom:
                if (!err->set) attu_error_oom(err);
                if (dict && !v) attu_dictionary_unref(dict);
                rc = -1;
            }
            for (size_t m = 0; vals && m < nvals; m++) free(vals[m]);
            free(vals); free(lens); free(codes); free(src); free(changed); attu_column_free(v);
        }
    }
    free(img);
    return rc;
}

static int rename_value(attu_session *s, const attu_ast_stmt *st, attu_error *err) {
    attu_comments *cs = attu_catalog_comments(db_cat(s));
    const char *from = st->u.type_stmt.label, *to = st->u.type_stmt.nbr;
    attu_enum_def *d = attu_enum_find_in(cs, st->u.type_stmt.name);
    if (!d) return no_type(st->u.type_stmt.name, 0, err);   /* (PostgreSQL gives no position) */
    int rc = 0, k = attu_enum_label_index(d, from, strlen(from));
    if (check_label(to, err)) rc = -1;
    else if (k < 0) rc = attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "\"%s\" is not an existing enum label", from);
    else if (attu_enum_label_index(d, to, strlen(to)) >= 0)
        rc = attu_error_set(err, "42710", 0, "enum label \"%s\" already exists", to);
    else {
        char *lab = strdup(to);
        if (!lab) rc = attu_error_oom(err);
        else {
            free(d->labels[k].label);
            d->labels[k].label = lab;
            /* the stored values follow (their images hold the label) */
            if (rewrite_label(s, d, k, from, err)) rc = -1;
            else if (attu_enum_store(cs, d)) rc = attu_error_oom(err);
        }
    }
    attu_enum_def_free(d);
    return rc;
}

static int rename_type(attu_session *s, const attu_ast_stmt *st, attu_error *err) {
    attu_comments *cs = attu_catalog_comments(db_cat(s));
    attu_enum_def *d = attu_enum_find_in(cs, st->u.type_stmt.name);
    if (!d) return no_type(st->u.type_stmt.name, 0, err);   /* (PostgreSQL gives no position) */
    int rc = 0;
    if (!strcmp(st->u.type_stmt.nbr, d->name) || name_taken(s, st->u.type_stmt.nbr, 0, err)) {
        if (!err->set) attu_error_set(err, "42710", 0, "type \"%s\" already exists", d->name);
        rc = -1;
    } else {
        char *nn = strdup(st->u.type_stmt.nbr);
        if (!nn) rc = attu_error_oom(err);
        else {
            attu_enum_remove(cs, d->name);
            free(d->name);
            d->name = nn;
            if (attu_enum_store(cs, d)) rc = attu_error_oom(err);
        }
    }
    attu_enum_def_free(d);
    return rc;
}

/* DROP TYPE ... CASCADE: the table columns of the types go first, each
 * by ALTER TABLE t DROP COLUMN c CASCADE (which takes the views on it
 * along), as PostgreSQL drops the dependent columns; a NOTICE names them. */
static int swallow_result(void *ctx, attu_result *res) { (void)ctx; (void)res; return 0; }

static int cascade_columns(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    typedef struct { char table[ATTU_NAME_MAX + 1], column[ATTU_NAME_MAX + 1]; } victim;
    victim *v = NULL;
    int n = 0, cap = 0, rc = 0;
    db_write_lock(s);
    attu_catalog *cat = db_cat(s);
    const attu_ast_name_list *l = &st->u.type_stmt.labels;
    for (int i = 0; i < l->n && !rc; i++) {
        attu_enum_def *d = attu_enum_find_in(attu_catalog_comments(cat), l->items[i]);
        if (!d && !st->u.type_stmt.if_exists) { rc = no_type(l->items[i], 0, err); break; }   /* (nothing dropped yet) */
        if (!d) continue;
        for (size_t k = 0; k < attu_catalog_count(cat) && !rc; k++) {
            const attu_table *t = attu_catalog_at(cat, k);
            for (int c = 0; c < t->ncols; c++) {
                if (!holds_enum(t->defs[c].type, d->id)) continue;
                if (n == cap) {
                    victim *nv = realloc(v, (size_t)(cap = cap ? cap * 2 : 4) * sizeof *nv);
                    if (!nv) { rc = attu_error_oom(err); break; }
                    v = nv;
                }
                snprintf(v[n].table, sizeof v[n].table, "%s", t->name);
                snprintf(v[n].column, sizeof v[n].column, "%s", t->defs[c].name);
                n++;
            }
        }
        attu_enum_def_free(d);
    }
    pthread_rwlock_unlock(&s->db->lock);
    if (!rc && n && cb && cb->on_notice) {
        char msg[300];
        if (n == 1) snprintf(msg, sizeof msg, "drop cascades to column %s of table %s", v[0].column, v[0].table);
        else snprintf(msg, sizeof msg, "drop cascades to %d other objects", n);
        cb->on_notice(cb->ctx, "00000", msg);
    }
    attu_exec_callbacks quiet = { 0 };
    if (cb) quiet = *cb;
    quiet.on_result = swallow_result;
    quiet.on_notice = NULL;   /* (the NOTICE above says it) */
    for (int i = 0; i < n && !rc; i++) {
        attu_ast_alter_cmd cmd;
        memset(&cmd, 0, sizeof cmd);
        cmd.kind = ATTU_ALTER_DROP_COLUMN;
        cmd.column = v[i].column;
        cmd.cascade = true;
        attu_ast_stmt alt;
        memset(&alt, 0, sizeof alt);
        alt.kind = ATTU_STMT_ALTER_TABLE;
        alt.position = st->position;
        alt.u.alter_table.table = v[i].table;
        alt.u.alter_table.cmds = &cmd;
        alt.u.alter_table.ncmds = 1;
        if (db_exec_alter(s, "", &alt, &quiet, err) < 0) rc = -1;
    }
    free(v);
    return rc;
}

/* OWNER TO / SET SCHEMA: attu's one role and one schema, as for relations
 * (db_alter_owner.c): nothing changes. */
static int owner_or_schema(attu_session *s, const attu_ast_stmt *st, attu_error *err) {
    attu_enum_def *d = attu_enum_find_in(attu_catalog_comments(db_cat(s)), st->u.type_stmt.name);
    attu_enum_def_free(d);
    if (!d) return no_type(st->u.type_stmt.name, 0, err);
    const char *to = st->u.type_stmt.nbr;
    if (st->u.type_stmt.action == 'o') {
        const char *user = s->user[0] ? s->user : "attu";
        if (to && strcmp(to, user)) return attu_error_set(err, "42704", 0, "role \"%s\" does not exist", to);
        return 0;
    }
    if (!strcmp(to, "public")) return 0;
    if (!strcmp(to, "pg_catalog") || !strcmp(to, "information_schema"))
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "moving a type into schema \"%s\" is not supported", to);
    return attu_error_set(err, "3F000", 0, "schema \"%s\" does not exist", to);
}

int db_exec_type(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    if (st->u.type_stmt.action == 'd' && st->u.type_stmt.cascade && cascade_columns(s, st, cb, err)) return -1;
    db_write_lock(s);
    int rc;
    bool skipped = false;
    const char *tag = "ALTER TYPE";
    switch (st->u.type_stmt.action) {
    case 'c': rc = create_enum(s, st, err); tag = "CREATE TYPE"; break;
    case 'd': rc = drop_types(s, st, cb, err); tag = "DROP TYPE"; break;
    case 'a': rc = add_value(s, st, cb, err, &skipped); break;
    case 'v': rc = rename_value(s, st, err); break;
    case 'o': case 's': rc = owner_or_schema(s, st, err); skipped = true; break;   /* (nothing to save) */
    default: rc = rename_type(s, st, err); break;
    }
    if (!rc && !skipped && s->db->data_dir) rc = db_txn_touch_comments(s, err);
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    return db_deliver_tag(cb, tag, err) ? -2 : 0;
}
