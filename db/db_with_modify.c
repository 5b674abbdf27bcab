/*
 * db_with_modify.c - data-modifying statements in WITH (PostgreSQL's
 * "writable CTEs"):
 *
 *   WITH moved AS (DELETE FROM a WHERE ... RETURNING *)
 *   INSERT INTO b SELECT * FROM moved;
 *
 * PostgreSQL runs each such WITH query exactly once, to completion,
 * whether the main query reads it or not, and every part of the statement
 * sees one snapshot: the main query and the other WITH queries read the
 * tables as they were before the statement, and learn of a change only
 * through RETURNING.
 *
 * attu does it in three steps, all in the statement's transaction (so an
 * error anywhere undoes every part, as any failed statement's changes
 * are: db/db_txn.c):
 *
 *   1. the version of every table the statement starts from is kept
 *      (shared, not copied: engine/table.h);
 *   2. each data-modifying WITH query runs in order, as a statement of its
 *      own whose WITH list is the queries before it, and its RETURNING
 *      rows are kept in a table of their own;
 *   3. the main statement runs, its references to those WITH queries
 *      scanning the kept rows (planner/binder.c, bind_with_rows).
 *
 * In steps 2 and 3 every table a query reads is the kept version
 * (attu_bind_params.read_version); the changes go to the transaction's
 * working catalog as usual. An UPDATE or DELETE finds its rows by their
 * positions in the version it read; a row map per changed table (row_map)
 * turns those into the working version's, UPDATE keeping positions,
 * DELETE renumbering, INSERT appending. A row an earlier part updated or
 * deleted is skipped by a later UPDATE or DELETE: PostgreSQL lets only one
 * of two changes of the same row take effect ("not easy to predict
 * which"), attu the first. A table moved in a way the map does not follow
 * (a foreign key's action, ON CONFLICT DO UPDATE) is refused to a later
 * UPDATE or DELETE (0A000), and MERGE takes only a table whose rows are
 * where they were.
 *
 * The FOREIGN KEY checks of every part wait for the end of the statement
 * (attu_session.fk_at_statement_end, db/db_defer.c), as PostgreSQL's RI
 * triggers fire after the whole query; the main statement's result is held
 * until they passed.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/db_internal.h"

/* A table version the statement started from. */
typedef struct kept_table {
    attu_table *t;
    bool        top;       /* a temporary table */
} kept_table;

/* Where the rows of a kept version are now: pos[i] the position in the
 * working version (valid_for, at that version number) of the kept
 * version's row i, or -1 when an earlier part deleted or updated it (a
 * later UPDATE or DELETE skips it: the first change of a row is the one
 * that takes effect). NULL valid_for: the table changed in a way not
 * followed (a foreign key's action, ON CONFLICT DO UPDATE). */
typedef struct row_map {
    const attu_table *kept;
    int64_t          *pos;
    const attu_table *valid_for;
    uint64_t          version;
} row_map;

typedef struct ran_cte {
    const attu_ast_cte *cte;
    attu_table         *rows;      /* RETURNING's rows; NULL: none */
    attu_result        *res;       /* their names and types */
    char              **names;
    attu_type          *types;
    bool                returning;
} ran_cte;

struct db_with_state {
    kept_table         *kept;
    size_t              nkept;
    row_map            *maps;
    int                 nmaps;
    ran_cte            *ran;
    int                 nran;
    const attu_ast_cte *running;
    /* every query reads the kept versions: the main statement is COPY
     * (query) TO, which reads only, and whose path takes no parameters */
    bool                read_everywhere;
};

/* The statement's top-level WITH list (NULL: none). */
static const attu_ast_cte *top_with(const attu_ast_stmt *st, int *n, bool *recursive) {
    const attu_ast_query *q = NULL;
    *n = 0;
    *recursive = false;
    switch (st->kind) {
    case ATTU_STMT_SELECT: q = st->u.select.query; break;
    case ATTU_STMT_INSERT: q = st->u.insert.source; break;
    case ATTU_STMT_CREATE_TABLE_AS:
        /* (WITH NO DATA only analyses its query: nothing runs) */
        if (!st->u.create_table_as.with_no_data) q = st->u.create_table_as.query;
        break;
    case ATTU_STMT_COPY: q = st->u.copy.query; break;
    case ATTU_STMT_CREATE_VIEW: q = st->u.create_view.query; break;
    case ATTU_STMT_DECLARE_CURSOR: q = st->u.cursor.query; break;
    case ATTU_STMT_EXPLAIN:
        /* EXPLAIN ANALYZE runs the statement (EXPLAIN alone describes
         * its WITH queries' RETURNING: db_with_rows) */
        return st->u.explain.analyze ? top_with(st->u.explain.stmt, n, recursive) : NULL;
    case ATTU_STMT_UPDATE: case ATTU_STMT_DELETE: case ATTU_STMT_MERGE:
        *n = st->u.modify.nwith;
        *recursive = st->u.modify.with_recursive;
        return st->u.modify.with;
    default: return NULL;
    }
    if (!q) return NULL;
    *n = q->with.n;
    *recursive = q->with.recursive;
    return q->with.items;
}

bool db_with_modify_wants(const attu_session *s, const attu_ast_stmt *st) {
    if (s->wmod) return false;   /* (a part of one running) */
    int n;
    bool rec;
    const attu_ast_cte *w = top_with(st, &n, &rec);
    for (int i = 0; i < n; i++)
        if (w[i].modify) return true;
    return false;
}

static const char *command_name(const attu_ast_stmt *st) {
    switch (st->kind) {
    case ATTU_STMT_SELECT: return "SELECT";
    case ATTU_STMT_INSERT: return "INSERT";
    case ATTU_STMT_UPDATE: return "UPDATE";
    case ATTU_STMT_DELETE: return "DELETE";
    case ATTU_STMT_MERGE: return "MERGE";
    case ATTU_STMT_COPY: return "COPY";
    case ATTU_STMT_EXPLAIN: return command_name(st->u.explain.stmt);
    default: return "CREATE TABLE AS";
    }
}

/* ---- the binder's questions (attu_bind_params) ------------------------------------------- */

static attu_table *read_version(void *ctx, attu_table *t, bool top) {
    const struct db_with_state *w = ctx;
    for (size_t i = 0; i < w->nkept; i++)
        if (w->kept[i].top == top && !strcmp(w->kept[i].t->name, t->name)) return w->kept[i].t;
    return t;
}

void db_with_read_hooks(const attu_session *s, attu_bind_params *bp) {
    if (!s->wmod || !s->wmod->read_everywhere || bp->read_version) return;
    bp->read_version = read_version;
    bp->read_ctx = s->wmod;
}

/* Described only (PREPARE, Describe, EXPLAIN): the RETURNING columns,
 * kept by the session until the next description. */
static int describe(attu_session *s, const attu_ast_cte *cte, const attu_bind_params *params, attu_with_rows *out,
                    attu_error *err) {
    const attu_ast_stmt *st = cte->modify;
    int nret = st->kind == ATTU_STMT_INSERT ? st->u.insert.nreturning : st->u.modify.nreturning;
    out->returning = nret > 0;
    if (!nret) return 1;
    int n = 0;
    attu_result_column *cols = NULL;
    attu_bind_params bp;   /* (the query's parameters, not its hooks) */
    memset(&bp, 0, sizeof bp);
    if (params) { bp.n = params->n; bp.types = params->types; bp.values = params->values; bp.inferred = params->inferred; }
    /* (through a view: the statement on its relation, db_view_update.c) */
    db_view_rewrite rw;
    bool view = db_names_view(s, st->kind == ATTU_STMT_INSERT ? st->u.insert.table : st->u.modify.table);
    const attu_ast_stmt *on = st;
    if (view && db_view_rewrite_dml(s, st, &rw, &on, err)) { db_view_rewrite_free(&rw); return -1; }
    int r = on->kind == ATTU_STMT_INSERT ? db_insert_returning_describe(s, "", on, &bp, &n, &cols, err)
                                         : db_modify_describe(s, "", on, &bp, &n, &cols, err);
    if (view) db_view_rewrite_free(&rw);
    if (r) { free(cols); return -1; }
    db_with_described_free(s);
    s->with_described.cols = cols;
    s->with_described.names = calloc((size_t)n + 1, sizeof(char *));
    s->with_described.types = calloc((size_t)n + 1, sizeof(attu_type));
    if (!s->with_described.names || !s->with_described.types) { db_with_described_free(s); return attu_error_oom(err); }
    for (int i = 0; i < n; i++) {
        s->with_described.names[i] = cols[i].name;
        s->with_described.types[i] = cols[i].type;
    }
    out->ncols = n;
    out->names = s->with_described.names;
    out->types = s->with_described.types;
    return 1;
}

void db_with_described_free(attu_session *s) {
    free(s->with_described.cols);
    free(s->with_described.names);
    free(s->with_described.types);
    memset(&s->with_described, 0, sizeof s->with_described);
}

int db_with_rows(void *ctx, const attu_ast_cte *cte, bool describing, const attu_bind_params *params,
                 attu_with_rows *out, attu_error *err) {
    attu_session *s = ctx;
    const struct db_with_state *w = s->wmod;
    for (int i = 0; w && i < w->nran; i++) {
        const ran_cte *r = &w->ran[i];
        if (r->cte->modify != cte->modify) continue;   /* (a part's WITH list holds copies) */
        out->table = r->rows;
        out->ncols = r->res ? r->res->ncols : 0;
        out->names = r->names;
        out->types = r->types;
        out->returning = r->returning;
        return 1;
    }
    if (w && w->running && w->running->modify == cte->modify) return 2;
    if (describing) return describe(s, cte, params, out, err);
    return 0;
}

/* ---- running ------------------------------------------------------------------------------ */

/* Keeps the version of every table the statement can read (step 1). */
static int keep_tables(attu_session *s, struct db_with_state *w, attu_error *err) {
    pthread_rwlock_rdlock(&s->db->lock);
    attu_catalog *cat = db_cat(s);
    size_t n = attu_catalog_count(cat);
    w->kept = calloc(n ? n : 1, sizeof *w->kept);
    if (!w->kept) { pthread_rwlock_unlock(&s->db->lock); return attu_error_oom(err); }
    for (size_t i = 0; i < n; i++) {
        attu_table *t = attu_catalog_at(cat, i);
        if (!t) continue;
        w->kept[w->nkept].top = attu_catalog_is_top(cat, t);
        w->kept[w->nkept++].t = attu_table_share(t);
    }
    pthread_rwlock_unlock(&s->db->lock);
    return 0;
}

static const attu_table *working_version(attu_session *s, const char *name) {
    if (!name) return NULL;
    return attu_catalog_lookup(db_cat(s), name);
}

static row_map *find_map(struct db_with_state *w, const attu_table *kept) {
    for (int i = 0; i < w->nmaps; i++)
        if (w->maps[i].kept == kept) return &w->maps[i];
    return NULL;
}

/* The map of kept, made (every row where it was) when there is none;
 * NULL for memory. */
static row_map *need_map(struct db_with_state *w, const attu_table *kept) {
    row_map *m = find_map(w, kept);
    if (m) return m;
    row_map *v = realloc(w->maps, sizeof *v * (size_t)(w->nmaps + 1));
    if (!v) return NULL;
    w->maps = v;
    m = &w->maps[w->nmaps];
    memset(m, 0, sizeof *m);
    if (!(m->pos = malloc(sizeof *m->pos * (kept->nrows + 1)))) return NULL;
    for (size_t r = 0; r < kept->nrows; r++) m->pos[r] = (int64_t)r;
    m->kept = kept;
    m->valid_for = kept;
    m->version = kept->version;
    w->nmaps++;
    return m;
}

/* Under a statement with data-modifying WITH queries: the kept version of
 * the table whose working version is base (NULL: none, base is read as it
 * is). */
static const attu_table *kept_of(attu_session *s, const attu_bind_params *params, const attu_table *base) {
    const struct db_with_state *w = s->wmod;
    if (!w || !params || params->read_version != read_version) return NULL;
    const attu_table *k = read_version((void *)w, (attu_table *)base, attu_catalog_is_top(db_cat(s), base));
    return k;
}

int db_with_target(attu_session *s, const attu_bind_params *params, const attu_table *base, int pos, const char *verb,
                   const int64_t **map, size_t *nmap, attu_error *err) {
    *map = NULL;
    *nmap = 0;
    const attu_table *kept = kept_of(s, params, base);
    if (!kept) return 0;
    const row_map *m = find_map(s->wmod, kept);
    if (!m && kept == base) return 0;   /* (untouched so far) */
    if (m && m->valid_for == base && m->version == base->version) {
        *map = m->pos;
        *nmap = kept->nrows;
        return 0;
    }
    return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos,
                          "%s of table \"%s\" after a foreign key action or ON CONFLICT DO UPDATE of another part of "
                          "the statement changed it is not supported", verb, base->name);
}

int db_with_target_changed(attu_session *s, const attu_bind_params *params, const attu_table *base,
                           const attu_table *now, const uint8_t *changed, const uint8_t *keep, bool followed) {
    const attu_table *kept = kept_of(s, params, base);
    if (!kept) return 0;
    row_map *m = need_map(s->wmod, kept);
    if (!m) return -1;
    if (!followed) { m->valid_for = NULL; return 0; }
    int64_t *renum = NULL;
    if (keep) {
        if (!(renum = malloc(sizeof *renum * (base->nrows + 1)))) return -1;
        int64_t k = 0;
        for (size_t r = 0; r < base->nrows; r++) renum[r] = keep[r] ? k++ : -1;
    }
    for (size_t i = 0; i < kept->nrows; i++) {
        int64_t p = m->pos[i];
        if (p < 0 || (size_t)p >= base->nrows) continue;
        if (changed && changed[p]) m->pos[i] = -1;
        else if (renum) m->pos[i] = renum[p];
    }
    free(renum);
    m->valid_for = now;
    m->version = now->version;
    return 0;
}

/* After an INSERT part: the rows are where they were (its rows come after
 * them) unless ON CONFLICT DO UPDATE changed some. */
static int note_insert(attu_session *s, struct db_with_state *w, const attu_ast_stmt *st, const attu_table *kept,
                       const attu_table *before, uint64_t before_version) {
    const attu_table *now = working_version(s, st->u.insert.table);
    if (!now || !before || !kept || now == before) return 0;
    /* (before may be gone: only its pointer and version are compared) */
    row_map *m = find_map(w, kept);
    bool followed = m ? m->valid_for == before && m->version == before_version : kept == before;
    if (!followed) return 0;   /* (refused by the next UPDATE or DELETE) */
    if (!(m = need_map(w, kept))) return -1;
    if (st->u.insert.on_conflict && st->u.insert.on_conflict->update) m->valid_for = NULL;
    else { m->valid_for = now; m->version = now->version; }
    return 0;
}

/* The callbacks of a part: its result kept, notices passed on. */
typedef struct capture {
    const attu_exec_callbacks *outer;
    attu_result               *res;
} capture;

static int capture_result(void *ctx, attu_result *res) {
    capture *c = ctx;
    attu_result_free(c->res);
    c->res = res;
    return ATTU_RESULT_KEEP;
}
static void capture_notice(void *ctx, const char *sqlstate, const char *message) {
    capture *c = ctx;
    if (c->outer && c->outer->on_notice) c->outer->on_notice(c->outer->ctx, sqlstate, message);
}
static void capture_warning(void *ctx, const char *sqlstate, const char *message) {
    capture *c = ctx;
    db_warning(c->outer, sqlstate, message);
}

/* RETURNING's rows as a table of their own (columns c1, c2, ...: the
 * names RETURNING gave may repeat; the binder takes those from res). */
static int keep_rows(ran_cte *r, attu_error *err) {
    attu_result *res = r->res;
    r->names = calloc((size_t)res->ncols + 1, sizeof *r->names);
    r->types = calloc((size_t)res->ncols + 1, sizeof *r->types);
    attu_column_def *defs = calloc((size_t)res->ncols + 1, sizeof *defs);
    if (!r->names || !r->types || !defs) { free(defs); return attu_error_oom(err); }
    for (int i = 0; i < res->ncols; i++) {
        r->names[i] = res->desc[i].name;
        r->types[i] = res->desc[i].type;
        snprintf(defs[i].name, sizeof defs[i].name, "c%d", i + 1);
        defs[i].type = res->desc[i].type;
    }
    r->rows = attu_table_new("?with?", res->ncols, defs, err);
    free(defs);
    if (!r->rows) return -1;
    for (int i = 0; i < res->ncols; i++) {
        attu_column_free(r->rows->cols[i]);
        r->rows->cols[i] = res->cols[i];
        res->cols[i] = NULL;
    }
    r->rows->nrows = res->nrows;
    return 0;
}

/* WITH query i's statement, its WITH list the queries before it (and, in
 * a WITH RECURSIVE list, itself: a reference to it is 42P19), then its
 * own. The copies live in arena. */
static attu_ast_stmt *part_stmt(attu_ast_arena *arena, const attu_ast_cte *with, int i, bool recursive,
                                attu_error *err) {
    const attu_ast_stmt *src = with[i].modify;
    attu_ast_stmt *st = attu_ast_alloc(arena, sizeof *st);
    if (!st) { attu_error_oom(err); return NULL; }
    *st = *src;
    int nouter = recursive ? i + 1 : i;
    attu_ast_cte **items;
    int *n;
    bool *rec;
    attu_ast_query *q = NULL;
    if (st->kind == ATTU_STMT_INSERT) {
        if (!src->u.insert.source) return st;   /* (DEFAULT VALUES reads nothing) */
        if (!(q = attu_ast_alloc(arena, sizeof *q))) { attu_error_oom(err); return NULL; }
        *q = *src->u.insert.source;
        st->u.insert.source = q;
        items = &q->with.items; n = &q->with.n; rec = &q->with.recursive;
    } else {
        items = &st->u.modify.with; n = &st->u.modify.nwith; rec = &st->u.modify.with_recursive;
    }
    attu_ast_cte *all = attu_ast_alloc(arena, sizeof *all * (size_t)(nouter + *n + 1));
    if (!all) { attu_error_oom(err); return NULL; }
    memcpy(all, with, sizeof *all * (size_t)nouter);
    if (*n) memcpy(all + nouter, *items, sizeof *all * (size_t)*n);
    *items = all;
    *n += nouter;
    *rec = *rec || recursive;
    return st;
}

static void state_free(struct db_with_state *w) {
    for (size_t i = 0; i < w->nkept; i++) attu_table_free(w->kept[i].t);
    free(w->kept);
    for (int i = 0; i < w->nran; i++) {
        if (w->ran[i].rows) attu_table_free(w->ran[i].rows);
        attu_result_free(w->ran[i].res);
        free(w->ran[i].names);
        free(w->ran[i].types);
    }
    free(w->ran);
    for (int i = 0; i < w->nmaps; i++) free(w->maps[i].pos);
    free(w->maps);
}

int db_exec_with_modify(attu_session *s, const char *sql, const attu_ast_stmt *st, const attu_bind_params *params,
                        const attu_exec_callbacks *cb, attu_error *err) {
    int n;
    bool recursive;
    const attu_ast_cte *with = top_with(st, &n, &recursive);
    int first = 0;
    while (!with[first].modify) first++;
    /* where PostgreSQL refuses them */
    if (st->kind == ATTU_STMT_CREATE_VIEW)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, st->u.create_view.materialized
                              ? "materialized views must not use data-modifying statements in WITH"
                              : "views must not contain data-modifying statements in WITH");
    if (st->kind == ATTU_STMT_DECLARE_CURSOR)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "DECLARE CURSOR must not contain data-modifying statements in WITH");
    if (db_read_only(s))
        return attu_error_set(err, "25006", 0, "cannot execute %s in a read-only transaction", command_name(st));
    struct db_with_state w;
    memset(&w, 0, sizeof w);
    attu_ast_arena *arena = attu_ast_arena_new();
    attu_ast_stmt **parts = calloc((size_t)n, sizeof *parts);
    int rc = -1;
    if (!arena || !parts || !(w.ran = calloc((size_t)n, sizeof *w.ran))) { attu_error_oom(err); goto out; }
    for (int i = 0; i < n; i++)
        if (with[i].modify && !(parts[i] = part_stmt(arena, with, i, recursive, err))) goto out;
    /* the write locks of every table a part changes, then the snapshot
     * they all read (db_txn.c) */
    s->snapshot_taken = true;
    if (db_txn_snapshot(s, err) || db_txn_refresh(s, err)) goto out;
    for (int i = 0; i < n; i++)
        if (parts[i] && (db_txn_lock_stmt(s, parts[i], err) || db_txn_check_write(s, parts[i], err))) goto out;
    if (st->kind != ATTU_STMT_SELECT && st->kind != ATTU_STMT_COPY &&
        (db_txn_lock_stmt(s, st, err) || db_txn_check_write(s, st, err)))
        goto out;
    if (keep_tables(s, &w, err)) goto out;
    s->wmod = &w;
    s->fk_at_statement_end = true;
    attu_bind_params bp;
    memset(&bp, 0, sizeof bp);
    if (params) bp = *params;
    bp.read_version = read_version;
    bp.read_ctx = &w;
    /* step 2: each data-modifying WITH query, in order, once */
    for (int i = first; i < n; i++) {
        if (!parts[i]) continue;
        /* an INSERT's table: the version the statement read, and the
         * working one before it */
        /* (public.t, pg_temp.t: as the part will find it, db_temp.c) */
        int pmode = db_temp_stmt_mode(s, parts[i]);
        int was = attu_catalog_layer_mode(s->temp_layer, pmode < 0 ? ATTU_LAYER_AUTO : pmode);
        const attu_table *before = parts[i]->kind == ATTU_STMT_INSERT ? working_version(s, parts[i]->u.insert.table) : NULL;
        attu_catalog_layer_mode(s->temp_layer, was);
        const attu_table *kept = before ? read_version(&w, (attu_table *)before, attu_catalog_is_top(db_cat(s), before)) : NULL;
        uint64_t before_version = before ? before->version : 0;
        capture cap = { cb, NULL };
        attu_exec_callbacks pcb;
        memset(&pcb, 0, sizeof pcb);
        pcb.ctx = &cap;
        pcb.on_result = capture_result;
        pcb.on_notice = capture_notice;
        pcb.on_warning = capture_warning;
        w.running = &with[i];
        int r = db_exec_stmt(s, sql, parts[i], &bp, &pcb, err);
        w.running = NULL;
        ran_cte *rc_ = &w.ran[w.nran++];
        rc_->cte = &with[i];
        rc_->res = cap.res;
        rc_->returning = (parts[i]->kind == ATTU_STMT_INSERT ? parts[i]->u.insert.nreturning : parts[i]->u.modify.nreturning) > 0;
        if (r) { if (r == -2) rc = -2; goto out; }
        if (rc_->returning && cap.res && keep_rows(rc_, err)) goto out;
        if (parts[i]->kind == ATTU_STMT_INSERT && note_insert(s, &w, parts[i], kept, before, before_version)) { attu_error_oom(err); goto out; }
    }
    /* step 3: the main statement */
    /* (its result is held back until the foreign keys' checks passed;
     * COPY TO STDOUT's rows go to the client as they come) */
    capture main = { cb, NULL };
    attu_exec_callbacks mcb;
    memset(&mcb, 0, sizeof mcb);
    mcb.ctx = &main;
    mcb.on_result = capture_result;
    mcb.on_notice = capture_notice;
    mcb.on_warning = capture_warning;
    w.read_everywhere = st->kind == ATTU_STMT_COPY;
    rc = db_exec_stmt(s, sql, st, &bp, st->kind == ATTU_STMT_COPY ? cb : &mcb, err);
    w.read_everywhere = false;
    /* the foreign keys' checks, after every part (db_defer.c) */
    s->fk_at_statement_end = false;
    if (!rc && db_defer_fire_due(s, err)) rc = -1;
    if (!rc && main.res) {
        rc = db_deliver(cb, main.res) ? -2 : 0;
        main.res = NULL;
    }
    attu_result_free(main.res);
out:
    s->fk_at_statement_end = false;
    s->wmod = NULL;
    state_free(&w);
    free(parts);
    attu_ast_arena_free(arena);
    return rc;
}
