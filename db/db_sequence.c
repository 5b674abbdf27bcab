/*
 * db_sequence.c - the database's sequences: CREATE / ALTER / DROP
 * SEQUENCE, the sequence functions, serial and identity columns' owned
 * sequences (and those OWNED BY names), ALTER TABLE's identity actions.
 *
 * Sequences live beside the catalog of tables (engine/catalog.h stays a
 * catalog of tables): a list of engine/sequence.h generators guarded by
 * their own mutex, taken after the database's lock wherever both are held
 * (a query binding nextval holds the read lock; DDL the write lock). They
 * share PostgreSQL's one namespace of relations with the tables, so each
 * side's CREATE checks the other (42P07).
 *
 * As in PostgreSQL a sequence is not transactional: a value drawn is never
 * drawn again, whatever becomes of the statement. With a data directory,
 * every change is written (all sequences, one small text file,
 * attu.sequences, replaced by a rename) before the value is used, so a
 * restart never hands out a number twice. The name cannot clash with a
 * table's folder: storage escapes the dot of a table name.
 *
 * A session's currval and lastval are its own (attu_session.seq): the
 * last value nextval gave it per sequence, keyed by the sequence's id,
 * which a re-created sequence of the same name does not share.
 */
#include "db/db_internal.h"
#include "engine/storage.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/sequence.h"

#define SEQ_FILE "attu.sequences"
#define SEQ_FILE_TMP ".tmp-attu.sequences"
/* a COMMIT's staged file (db_sequences_commit_stage): dot-prefixed, so a
 * start that finds no commit record removes it */
#define SEQ_FILE_NEXT ".next-attu.sequences"
#define SEQ_HEADER "attu sequences 1"

/* rewritten: ALTERed or restarted in the open writing transaction, whose
 * ROLLBACK then puts its counter back too (PostgreSQL's ALTER SEQUENCE and
 * RESTART IDENTITY are transactional, its nextval is not) */
typedef struct seq_entry { attu_sequence *seq; uint64_t id; bool rewritten; } seq_entry;

struct db_sequences {
    pthread_mutex_t mu;
    seq_entry      *e;
    int             n, cap;
    uint64_t        next_id;
};

typedef struct seq_value { uint64_t id; int64_t last; } seq_value;

struct db_seq_session {
    seq_value *v;
    int        n, cap;
    uint64_t   last_used;   /* lastval's sequence; 0: none yet */
};

/* ---- the list ------------------------------------------------------------------------- */

/* Any sequence of the name, whoever's (a serial column's new sequence is
 * named so that it is unique among them all). */
static int find_any(const db_sequences *q, const char *name) {
    for (int i = 0; i < q->n; i++) if (!strcmp(q->e[i].seq->name, name)) return i;
    return -1;
}

/* The sequence session s reaches by name on side (ATTU_LAYER_*, the
 * temporary catalog's modes): TOP its own temporary one (pg_temp.s),
 * BASE the permanent one (public.s), AUTO the search path's, pg_temp
 * first, so that a temporary sequence shadows a permanent one of its
 * name. Another session's temporary sequences are never reached. */
static int find_on(const db_sequences *q, const attu_session *s, const char *name, int side) {
    int permanent = -1;
    for (int i = 0; i < q->n; i++) {
        const attu_sequence *x = q->e[i].seq;
        if (strcmp(x->name, name)) continue;
        if (!x->temp_owner) { if (side != ATTU_LAYER_TOP && permanent < 0) permanent = i; }
        else if (x->temp_owner == (const void *)s && side != ATTU_LAYER_BASE) return i;
    }
    return permanent;
}

static int find(const db_sequences *q, const attu_session *s, const char *name) {
    return find_on(q, s, name, ATTU_LAYER_AUTO);
}

/* The layer side of a relation named so (ATTU_REL_*) */
static int seq_side(char schema) {
    return schema == ATTU_REL_TEMP ? ATTU_LAYER_TOP : schema == ATTU_REL_PUBLIC ? ATTU_LAYER_BASE : ATTU_LAYER_AUTO;
}

/* A name as a regclass text gave it (nextval('public.s'), 'pg_temp.s'):
 * its side and, in *bare, the name past the schema. */
static int named_side(const char *name, const char **bare) {
    *bare = name;
    if (!strncmp(name, "public.", 7)) { *bare = name + 7; return ATTU_LAYER_BASE; }
    if (!strncmp(name, "pg_temp", 7)) {
        const char *p = name + 7;
        if (*p == '_') { p++; while (*p >= '0' && *p <= '9') p++; }
        if (*p == '.') { *bare = p + 1; return ATTU_LAYER_TOP; }
    }
    return ATTU_LAYER_AUTO;
}

/* find for a name that may be schema-qualified (named_side) */
static int find_named(const db_sequences *q, const attu_session *s, const char *name) {
    const char *bare;
    int side = named_side(name, &bare);
    return find_on(q, s, bare, side);
}

static int add(db_sequences *q, attu_sequence *seq, attu_error *err) {
    if (q->n == q->cap) {
        int nc = q->cap ? q->cap * 2 : 8;
        seq_entry *ne = realloc(q->e, sizeof *ne * (size_t)nc);
        if (!ne) return attu_error_oom(err);
        q->e = ne;
        q->cap = nc;
    }
    q->e[q->n].seq = seq;
    q->e[q->n].id = ++q->next_id;
    q->e[q->n].rewritten = false;
    q->n++;
    return 0;
}

static void remove_at(db_sequences *q, int i) {
    attu_sequence_free(q->e[i].seq);
    memmove(q->e + i, q->e + i + 1, sizeof *q->e * (size_t)(q->n - i - 1));
    q->n--;
}

/* ---- the file --------------------------------------------------------------------------- */

struct db_seq_snapshot {
    char   **lines;
    uint64_t *ids;
    const void **owners;   /* each one's temp_owner (db/db_temp.c): the lines leave it out */
    int      n;
    uint64_t next_id;
};

/* The line of entry i as the file keeps it: while a transaction writes
 * (db->seq_base, its snapshot of the sequences), the file keeps the
 * committed definitions, each with the numbers drawn since (numbers are
 * not transactional): a sequence made in the transaction is left out, one
 * it dropped or altered is kept as it was (NULL: leave it out). */
static char *file_line(attu_db *db, const db_seq_snapshot *base, int i) {
    (void)db;
    if (!base) return NULL;
    attu_error e;
    attu_error_clear(&e);
    attu_sequence *seq = attu_sequence_parse(base->lines[i], &e);
    if (!seq) return NULL;
    db_sequences *q = db->seqs;
    for (int k = 0; k < q->n; k++)
        if (q->e[k].id == base->ids[i] && !q->e[k].rewritten) {
            seq->last_value = q->e[k].seq->last_value;
            seq->is_called = q->e[k].seq->is_called;
        }
    char *line = attu_sequence_format(seq);
    attu_sequence_free(seq);
    return line;
}

/* Writes every sequence into file `name` of the data directory, as base
 * keeps them (file_line) when not NULL (the caller holds mu). */
/* Whether the i-th sequence to save (base's, else the list's) serves a
 * temporary table (db/db_temp.c). */
static bool seq_is_temp(const db_sequences *q, const db_seq_snapshot *base, int i) {
    if (!base) return q->e[i].seq->temp_owner != NULL;
    for (int k = 0; k < q->n; k++)
        if (q->e[k].id == base->ids[i]) return q->e[k].seq->temp_owner != NULL;
    return false;
}

/* Whether x is a sequence of table (OWNED BY) as session s sees it: a
 * temporary table's belongs to its session alone, and while s has a
 * temporary table of that name (or its statement works on one) only the
 * temporary one's count, as the table shadows a permanent one. */
static bool seq_owned(const attu_session *s, const attu_sequence *x, const char *table) {
    if (!x->owner_table || strcmp(x->owner_table, table)) return false;
    if (x->temp_owner && x->temp_owner != (const void *)s) return false;
    return (x->temp_owner != NULL) == db_temp_scope(s, table);
}

static int save_as(attu_db *db, const db_seq_snapshot *base, const char *name, attu_error *err) {
    db_sequences *q = db->seqs;
    char tmp[4096], path[4096];
    snprintf(tmp, sizeof tmp, "%s/%s", db->data_dir, SEQ_FILE_TMP);
    snprintf(path, sizeof path, "%s/%s", db->data_dir, name);
    FILE *f = fopen(tmp, "w");
    if (!f) return attu_error_set(err, ATTU_SQLSTATE_IO_ERROR, 0, "could not write \"%s\": %s", tmp, strerror(errno));
    bool ok = fprintf(f, "%s\n", SEQ_HEADER) > 0;
    for (int i = 0; ok && i < (base ? base->n : q->n); i++) {
        if (seq_is_temp(q, base, i)) continue;   /* (a temporary table's: never saved) */
        char *line = base ? file_line(db, base, i) : attu_sequence_format(q->e[i].seq);
        ok = line && fprintf(f, "%s\n", line) > 0;
        free(line);
    }
    ok = ok && fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0) {
        int e = errno;
        unlink(tmp);
        return attu_error_set(err, ATTU_SQLSTATE_IO_ERROR, 0, "could not write \"%s\": %s", path, strerror(e));
    }
    int dfd = open(db->data_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) { fsync(dfd); close(dfd); }
    return 0;
}

/* Writes every sequence (the caller holds mu): the committed definitions
 * while a transaction writes (db->seq_base). */
static int save(attu_db *db, attu_error *err) {
    if (!db->data_dir) return 0;
    return save_as(db, db->seq_base, SEQ_FILE, err);
}

/* Whether the sequences' definitions differ from base's (counters aside). */
static bool defs_changed(attu_db *db, const db_seq_snapshot *base) {
    db_sequences *q = db->seqs;
    if (q->n != base->n) return true;
    for (int i = 0; i < base->n; i++) {
        if (q->e[i].id != base->ids[i]) return true;
        char *was = file_line(db, base, i), *now = attu_sequence_format(q->e[i].seq);
        bool same = was && now && !strcmp(was, now);
        free(was);
        free(now);
        if (!same) return true;
    }
    return false;
}

int db_sequences_commit_stage(attu_db *db, attu_storage_commit *c, attu_error *err) {
    pthread_mutex_lock(&db->seqs->mu);
    if (!db->data_dir || !db->seq_base || !defs_changed(db, db->seq_base)) return 0;
    if (save_as(db, NULL, SEQ_FILE_NEXT, err)) return -1;
    return attu_storage_commit_file(c, SEQ_FILE_NEXT, SEQ_FILE, err);
}

void db_sequences_commit_end(attu_db *db, bool committed) {
    if (committed) {
        db->seq_base = NULL;
        for (int i = 0; i < db->seqs->n; i++) db->seqs->e[i].rewritten = false;
    }
    pthread_mutex_unlock(&db->seqs->mu);
}

static int load(attu_db *db, attu_error *err) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", db->data_dir, SEQ_FILE);
    FILE *f = fopen(path, "r");
    if (!f) return errno == ENOENT ? 0 : attu_error_set(err, ATTU_SQLSTATE_IO_ERROR, 0, "could not read \"%s\": %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int rc = 0, lineno = 0;
    while (!rc && (len = getline(&line, &cap, f)) >= 0) {
        if (len && line[len - 1] == '\n') line[--len] = '\0';
        if (lineno++ == 0) {
            if (strcmp(line, SEQ_HEADER)) rc = attu_error_set(err, ATTU_SQLSTATE_DATA_CORRUPTED, 0, "\"%s\" is not a sequence file of this attu", path);
            continue;
        }
        if (!len) continue;
        attu_sequence *seq = attu_sequence_parse(line, err);
        if (!seq || add(db->seqs, seq, err)) { attu_sequence_free(seq); rc = -1; }
    }
    free(line);
    fclose(f);
    return rc;
}

int db_sequences_open(attu_db *db, attu_error *err) {
    db->seqs = calloc(1, sizeof *db->seqs);
    if (!db->seqs) return attu_error_oom(err);
    pthread_mutex_init(&db->seqs->mu, NULL);
    return db->data_dir ? load(db, err) : 0;
}

void db_sequences_close(attu_db *db) {
    db_sequences *q = db->seqs;
    if (!q) return;
    for (int i = 0; i < q->n; i++) attu_sequence_free(q->e[i].seq);
    free(q->e);
    pthread_mutex_destroy(&q->mu);
    free(q);
    db->seqs = NULL;
}

void db_seq_session_free(attu_session *s) {
    if (!s->seq) return;
    free(s->seq->v);
    free(s->seq);
    s->seq = NULL;
}


bool db_sequence_exists(attu_session *s, const char *name) {
    pthread_mutex_lock(&s->db->seqs->mu);
    bool r = find(s->db->seqs, s, name) >= 0;
    pthread_mutex_unlock(&s->db->seqs->mu);
    return r;
}

/* ---- the session's values -------------------------------------------------------------- */

static int remember(attu_session *s, uint64_t id, int64_t v, bool as_last, attu_error *err) {
    if (!s->seq && !(s->seq = calloc(1, sizeof *s->seq))) return attu_error_oom(err);
    db_seq_session *ss = s->seq;
    int i = 0;
    while (i < ss->n && ss->v[i].id != id) i++;
    if (i == ss->n) {
        if (ss->n == ss->cap) {
            int nc = ss->cap ? ss->cap * 2 : 4;
            seq_value *nv = realloc(ss->v, sizeof *nv * (size_t)nc);
            if (!nv) return attu_error_oom(err);
            ss->v = nv;
            ss->cap = nc;
        }
        ss->n++;
    }
    ss->v[i].id = id;
    ss->v[i].last = v;
    if (as_last) ss->last_used = id;
    return 0;
}

static const seq_value *recall(const attu_session *s, uint64_t id) {
    if (!s->seq) return NULL;
    for (int i = 0; i < s->seq->n; i++) if (s->seq->v[i].id == id) return &s->seq->v[i];
    return NULL;
}

/* 42P01, or 42809 for a table of that name (the caller holds mu and the
 * database's lock). */
static int not_a_sequence(attu_session *s, const char *name, attu_error *err) {
    const char *bare;
    named_side(name, &bare);
    if (attu_catalog_lookup(db_cat(s), bare))
        return attu_error_set(err, "42809", 0, "\"%s\" is not a sequence", bare);
    return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "relation \"%s\" does not exist", name);
}

int db_sequence_call(void *ctx, attu_sequence_op op, const char *name, int64_t value, bool is_called, int64_t *out,
                     attu_error *err) {
    attu_session *s = ctx;
    db_sequences *q = s->db->seqs;
    int rc = 0;
    pthread_mutex_lock(&q->mu);
    if (op == ATTU_SEQ_LASTVAL) {
        int i = -1;
        if (s->seq && s->seq->last_used)
            for (int k = 0; k < q->n; k++) if (q->e[k].id == s->seq->last_used) i = k;
        const seq_value *v = i >= 0 ? recall(s, q->e[i].id) : NULL;
        if (!v) rc = attu_error_set(err, "55000", 0, "lastval is not yet defined in this session");
        else *out = v->last;
        pthread_mutex_unlock(&q->mu);
        return rc;
    }
    int i = find_named(q, s, name);
    const char *bare;
    if (i < 0 && named_side(name, &bare) == ATTU_LAYER_TOP && !s->temp) {
        /* (no temporary schema yet: PostgreSQL finds no schema) */
        attu_error_set(err, "3F000", 0, "schema \"pg_temp\" does not exist");
        pthread_mutex_unlock(&q->mu);
        return -1;
    }
    if (i < 0) {
        not_a_sequence(s, name, err);
        pthread_mutex_unlock(&q->mu);
        return -1;
    }
    seq_entry *e = &q->e[i];
    /* (after the lookup: a missing sequence is 42P01 first, as in PostgreSQL) */
    if ((op == ATTU_SEQ_NEXTVAL || op == ATTU_SEQ_SETVAL) && db_read_only(s)) {
        pthread_mutex_unlock(&q->mu);
        return attu_error_set(err, "25006", 0, "cannot execute %s() in a read-only transaction",
                              op == ATTU_SEQ_NEXTVAL ? "nextval" : "setval");
    }
    if (op == ATTU_SEQ_CHECK) *out = 0;
    else if (op == ATTU_SEQ_CURRVAL) {
        const seq_value *v = recall(s, e->id);
        if (!v) rc = attu_error_set(err, "55000", 0, "currval of sequence \"%s\" is not yet defined in this session", name);
        else *out = v->last;
    } else if (op == ATTU_SEQ_NEXTVAL) {
        attu_sequence before = *e->seq;
        rc = attu_sequence_next(e->seq, out, err);
        if (!rc && (rc = save(s->db, err))) {   /* not written: not drawn */
            e->seq->last_value = before.last_value;
            e->seq->is_called = before.is_called;
        }
        if (!rc) rc = remember(s, e->id, *out, true, err);
    } else {
        attu_sequence before = *e->seq;
        rc = attu_sequence_set(e->seq, value, is_called, err);
        if (!rc && (rc = save(s->db, err))) {
            e->seq->last_value = before.last_value;
            e->seq->is_called = before.is_called;
        }
        if (!rc && is_called) rc = remember(s, e->id, value, false, err);
        *out = value;
    }
    pthread_mutex_unlock(&q->mu);
    return rc;
}

/* An identifier as SQL writes it: double-quoted unless it is all lower
 * case letters, digits and '_' (not starting with a digit). */
static void quote_ident(const char *name, char *out, size_t cap) {
    bool plain = name[0] && !(name[0] >= '0' && name[0] <= '9');
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')) plain = false;
    size_t k = 0;
    if (!plain && k + 1 < cap) out[k++] = '"';
    for (const char *p = name; *p && k + 3 < cap; p++) {
        if (*p == '"' && !plain) out[k++] = '"';
        out[k++] = *p;
    }
    if (!plain && k + 1 < cap) out[k++] = '"';
    out[k] = '\0';
}

int db_serial_sequence(void *ctx, const char *table, const char *column, char *out, size_t cap, attu_error *err) {
    attu_session *s = ctx;
    const attu_table *t = attu_catalog_lookup(db_cat(s), table);
    if (!t) return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "relation \"%s\" does not exist", table);
    if (attu_table_find_column(t, column) < 0)
        return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, 0, "column \"%s\" of relation \"%s\" does not exist", column, table);
    db_sequences *q = s->db->seqs;
    int r = 0;
    pthread_mutex_lock(&q->mu);
    for (int i = 0; i < q->n && !r; i++) {
        const attu_sequence *x = q->e[i].seq;
        if (seq_owned(s, x, table) && !strcmp(x->owner_column, column)) {
            char quoted[200];
            quote_ident(x->name, quoted, sizeof quoted);
            snprintf(out, cap, "public.%s", quoted);
            r = 1;
        }
    }
    pthread_mutex_unlock(&q->mu);
    return r;
}

int db_sequences_list(void *ctx, attu_sequence ***out, int *n) {
    attu_session *s = ctx;
    db_sequences *q = s->db->seqs;
    *out = NULL;
    *n = 0;
    pthread_mutex_lock(&q->mu);
    attu_sequence **v = q->n ? calloc((size_t)q->n, sizeof *v) : NULL;
    int rc = q->n && !v ? -1 : 0;
    /* each a copy through the line the file keeps (every field, owner
     * and identity included), so the caller reads it without the mutex */
    int m = 0;
    for (int i = 0; i < q->n && !rc; i++) {
        /* (another session's temporary table's: not this session's to see) */
        if (q->e[i].seq->temp_owner && q->e[i].seq->temp_owner != (const void *)s) continue;
        char *line = attu_sequence_format(q->e[i].seq);
        attu_error e;
        attu_error_clear(&e);
        v[m] = line ? attu_sequence_parse(line, &e) : NULL;
        free(line);
        if (v[m]) v[m]->temp_owner = q->e[i].seq->temp_owner;   /* (pg_class: a temporary one's schema) */
        if (!v[m++]) rc = -1;
    }
    pthread_mutex_unlock(&q->mu);
    if (rc) {
        for (int i = 0; i < m && v; i++) if (v[i]) attu_sequence_free(v[i]);
        free(v);
        return -1;
    }
    *out = v;
    *n = m;
    return 0;
}

/* ---- DEFAULT nextval('name') ----------------------------------------------------------------- */

/* The stored DEFAULT text of a sequence default is exactly
 * nextval('<regclass text>') (db_sequence_default_text writes it). */
/* The sequence name a regclass text names (m bytes; doubled: quotes of
 * a literal are doubled in it): folded as the binder folds it
 * (planner/sequence_functions.c). NULL when out of memory or malformed. */
static char *fold_name(const char *p, size_t m, bool doubled) {
    char *out = malloc(m + 1);
    if (!out) return NULL;
    size_t k = 0;
    bool quoted = false;
    for (size_t i = 0; i < m; i++) {
        char c = p[i];
        if (c == '\'' && doubled) {
            if (i + 1 < m && p[i + 1] == '\'') i++;
            else { free(out); return NULL; }
        } else if (c == '"') {
            if (quoted && i + 1 < m && p[i + 1] == '"') { out[k++] = '"'; i++; continue; }
            quoted = !quoted;
            continue;
        }
        if (c == '.' && !quoted && k == 6 && !strncmp(out, "public", 6)) { k = 0; continue; }   /* public.s is s */
        out[k++] = quoted ? c : (char)((c >= 'A' && c <= 'Z') ? c + 32 : c);
    }
    out[k] = '\0';
    return out;
}

char *db_sequence_fold(const char *text, size_t n) { return fold_name(text, n, false); }

int db_sequence_draw(attu_session *s, char *const *names, int m, size_t nrows, int64_t *out, attu_error *err) {
    db_sequences *q = s->db->seqs;
    int *which = calloc((size_t)m + 1, sizeof *which);
    if (!which) return attu_error_oom(err);
    int rc = 0;
    pthread_mutex_lock(&q->mu);
    for (int j = 0; j < m && !rc; j++)
        if ((which[j] = find_named(q, s, names[j])) < 0) rc = not_a_sequence(s, names[j], err);
    if (!rc && m && nrows && db_read_only(s))
        rc = attu_error_set(err, "25006", 0, "cannot execute nextval() in a read-only transaction");
    bool drew = false;
    uint64_t last_id = 0;
    for (size_t r = 0; r < nrows && !rc; r++)
        for (int j = 0; j < m && !rc; j++) {
            seq_entry *e = &q->e[which[j]];
            if (attu_sequence_next(e->seq, &out[r * (size_t)m + (size_t)j], err)) { rc = -1; break; }
            drew = true;
            last_id = e->id;
            if (remember(s, e->id, out[r * (size_t)m + (size_t)j], false, err)) rc = -1;
        }
    if (drew) {   /* the values drawn stay drawn, even when it fails */
        attu_error e2;
        attu_error_clear(&e2);
        if (save(s->db, rc ? &e2 : err) && !rc) rc = -1;
        if (s->seq) s->seq->last_used = last_id;
    }
    pthread_mutex_unlock(&q->mu);
    free(which);
    return rc ? -1 : 0;
}

char *db_default_sequence(const char *sql) {
    static const char head[] = "nextval('";
    if (!sql || strncmp(sql, head, sizeof head - 1)) return NULL;
    const char *p = sql + sizeof head - 1;
    size_t n = strlen(p);
    if (n < 2 || strcmp(p + n - 2, "')")) return NULL;
    return fold_name(p, n - 2, true);
}

/* nextval('name') as stored: the name quoted as an identifier when it is
 * not all lower case letters, digits and '_' (so the regclass folding
 * gives it back), quotes of the literal doubled. */
static char *default_text(const char *name) {
    size_t n = strlen(name);
    char *out = malloc(4 * n + 16), *p = out;
    if (!out) return NULL;
    bool plain = n > 0 && !(name[0] >= '0' && name[0] <= '9');
    for (size_t i = 0; i < n; i++)
        if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') || name[i] == '_')) plain = false;
    p += sprintf(p, "nextval('");
    if (!plain) *p++ = '"';
    for (size_t i = 0; i < n; i++) {
        if (name[i] == '\'') *p++ = '\'';
        if (name[i] == '"') *p++ = '"';
        *p++ = name[i];
    }
    if (!plain) *p++ = '"';
    p += sprintf(p, "')");
    return out;
}

/* Whether a column DEFAULT written as e is nextval of a constant name:
 * nextval('s') or nextval('s'::regclass); *lit gets the literal. */
static bool is_nextval_default(const attu_ast_expr *e, const attu_ast_expr **lit) {
    if (!e || e->kind != ATTU_EXPR_FUNC || e->u.func.schema || strcmp(e->u.func.name, "nextval") || e->u.func.args.n != 1 ||
        e->u.func.star || e->u.func.distinct || e->u.func.over || e->u.func.filter || e->u.func.order_by.n)
        return false;
    const attu_ast_expr *a = e->u.func.args.items[0];
    if (a->kind == ATTU_EXPR_CAST && a->u.cast.type.name && !strcmp(a->u.cast.type.name, "regclass")) a = a->u.cast.arg;
    if (a->kind != ATTU_EXPR_LITERAL || a->u.literal.kind != ATTU_LIT_STRING) return false;
    *lit = a;
    return true;
}

static bool int_type(attu_type_id t) { return t == ATTU_TYPE_INT16 || t == ATTU_TYPE_INT32 || t == ATTU_TYPE_INT64; }

char *db_nextval_default_name(const attu_ast_expr *e) {
    const attu_ast_expr *lit;
    if (!is_nextval_default(e, &lit)) return NULL;
    return fold_name(lit->u.literal.text, lit->u.literal.len, false);
}

int db_sequence_default_text(attu_session *s, const attu_ast_expr *e, const attu_column_def *def, char **out,
                             attu_error *err) {
    *out = NULL;
    const attu_ast_expr *lit;
    if (!is_nextval_default(e, &lit)) return 0;
    if (!int_type(def->type.id))
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                              "DEFAULT nextval() is supported for smallint, integer and bigint columns only");
    /* the name as the regclass text reads it: stored through the same
     * folding, so the sequence must exist now, as PostgreSQL checks */
    char *name = fold_name(lit->u.literal.text, lit->u.literal.len, false);
    if (!name) return attu_error_oom(err);
    pthread_mutex_lock(&s->db->seqs->mu);
    int i = find_named(s->db->seqs, s, name);
    pthread_mutex_unlock(&s->db->seqs->mu);
    int rc = 0;
    const char *bare;
    named_side(name, &bare);   /* (stored bare: the search path finds it, pg_temp first) */
    if (i < 0) {
        pthread_rwlock_rdlock(&s->db->lock);
        not_a_sequence(s, name, err);
        pthread_rwlock_unlock(&s->db->lock);
        err->position = lit->position;
        rc = -1;
    } else if (!(*out = default_text(bare))) rc = attu_error_oom(err);
    free(name);
    return rc ? -1 : 1;
}

int db_sequence_store(attu_column *c, size_t r, int64_t v, attu_error *err) {
    attu_type_id t = c->type.id;
    if ((t == ATTU_TYPE_INT16 && (v < INT16_MIN || v > INT16_MAX)) || (t == ATTU_TYPE_INT32 && (v < INT32_MIN || v > INT32_MAX)))
        return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "%s out of range", t == ATTU_TYPE_INT16 ? "smallint" : "integer");
    if (t == ATTU_TYPE_INT64) ((int64_t *)c->data)[r] = v;
    else if (t == ATTU_TYPE_INT32 || t == ATTU_TYPE_INT16) ((int32_t *)c->data)[r] = (int32_t)v;   /* smallint in an int32 slot */
    else return attu_error_set(err, ATTU_SQLSTATE_INTERNAL, 0, "a sequence's number for a column that is no integer");
    if (c->validity) attu_column_set_null(c, r, false);
    return 0;
}

int db_sequence_default_columns(attu_session *s, const attu_table *base, const int *cols, int m, size_t nrows,
                                attu_column **out, attu_error *err) {
    for (int j = 0; j < m; j++) out[j] = NULL;
    char **names = calloc((size_t)m + 1, sizeof *names);
    int64_t *v = malloc(sizeof *v * (nrows * (size_t)m + 1));
    int rc = names && v ? 0 : attu_error_oom(err);
    for (int j = 0; j < m && !rc; j++)
        if (!(names[j] = db_default_sequence(attu_catalog_default(db_cat(s), base->name, cols[j])))) rc = attu_error_oom(err);
    for (int j = 0; j < m && !rc; j++)
        if (!(out[j] = attu_column_new(base->defs[cols[j]].type, nrows ? nrows : 1, err))) rc = -1;
        else out[j]->length = nrows;
    /* row by row, column by column: PostgreSQL's order of evaluation */
    if (!rc) rc = db_sequence_draw(s, names, m, nrows, v, err);
    for (size_t r = 0; r < nrows && !rc; r++)
        for (int j = 0; j < m && !rc; j++) rc = db_sequence_store(out[j], r, v[r * (size_t)m + (size_t)j], err);
    for (int j = 0; names && j < m; j++) free(names[j]);
    free(names);
    free(v);
    if (rc) for (int j = 0; j < m; j++) { attu_column_free(out[j]); out[j] = NULL; }
    return rc ? -1 : 0;
}

/* ---- owned sequences: serial and identity columns ----------------------------------------------- */

char db_sequence_identity(attu_session *s, const char *table, const char *column) {
    db_sequences *q = s->db->seqs;
    char r = 0;
    pthread_mutex_lock(&q->mu);
    for (int i = 0; i < q->n; i++) {
        const attu_sequence *x = q->e[i].seq;
        if (x->identity && seq_owned(s, x, table) && !strcmp(x->owner_column, column)) r = x->identity;
    }
    pthread_mutex_unlock(&q->mu);
    return r;
}

/* PostgreSQL's ChooseRelationName: table_column_seq, the longer of the
 * two names cut (the column's on a tie) until it fits 63 bytes, with a
 * number after "seq" until no relation has the name. */
static char *choose_name(attu_session *s, const char *table, const char *column, const char *also_taken) {
    char name[128], label[32];
    for (int k = 0;; k++) {
        if (k) snprintf(label, sizeof label, "seq%d", k);
        else snprintf(label, sizeof label, "seq");
        size_t tl = strlen(table), cl = strlen(column), avail = 63 - strlen(label) - 2;
        while (tl + cl > avail) { if (tl > cl) tl--; else cl--; }
        snprintf(name, sizeof name, "%.*s_%.*s_%s", (int)tl, table, (int)cl, column, label);
        if (find_any(s->db->seqs, name) < 0 && !attu_catalog_relation_exists(db_cat(s), name) && strcmp(name, also_taken)) break;
    }
    return strdup(name);
}

int db_sequence_create_owned(attu_session *s, const char *table, const char *column, attu_type_id type, char identity,
                             const attu_sequence_options *opt, char **default_sql, attu_error *err) {
    *default_sql = NULL;
    attu_sequence_options o;
    if (opt) o = *opt;
    else memset(&o, 0, sizeof o);
    if (o.type == ATTU_TYPE_UNKNOWN) o.type = type;
    db_sequences *q = s->db->seqs;
    pthread_mutex_lock(&q->mu);
    /* the sequences of the table's earlier columns are in the list
     * already; the table itself is not in the catalog yet */
    char *name = choose_name(s, table, column, table);
    int rc = 0;
    attu_sequence *seq = name ? attu_sequence_new(name, &o, err) : NULL;
    if (!name) rc = attu_error_oom(err);
    else if (!seq) rc = -1;
    else if (!(seq->owner_table = strdup(table)) || !(seq->owner_column = strdup(column)) || add(q, seq, err)) {
        attu_sequence_free(seq);
        rc = attu_error_oom(err);
    } else {
        seq->identity = identity;
        seq->temp_owner = db_temp_creating(s) ? s : NULL;
        if (!(*default_sql = default_text(name))) { remove_at(q, q->n - 1); rc = attu_error_oom(err); }
    }
    pthread_mutex_unlock(&q->mu);
    free(name);
    return rc;
}

/* Drops (drop) or restarts the sequences table owns; saved. */
static int each_owned(attu_session *s, const char *table, bool drop, attu_error *err) {
    db_sequences *q = s->db->seqs;
    pthread_mutex_lock(&q->mu);
    bool changed = false;
    for (int i = q->n - 1; i >= 0; i--) {
        attu_sequence *x = q->e[i].seq;
        if (!seq_owned(s, x, table)) continue;
        changed = true;
        if (drop) remove_at(q, i);
        else { attu_sequence_restart(x); q->e[i].rewritten = true; }
    }
    int rc = changed ? save(s->db, err) : 0;
    pthread_mutex_unlock(&q->mu);
    return rc;
}

bool db_sequences_has_temp(attu_session *s) {
    db_sequences *q = s->db->seqs;
    pthread_mutex_lock(&q->mu);
    bool r = false;
    for (int i = 0; i < q->n && !r; i++) r = q->e[i].seq->temp_owner == (const void *)s;
    pthread_mutex_unlock(&q->mu);
    return r;
}

/* static: used_by_default is below */
static bool used_by_default(attu_session *s, const char *name, const attu_table **table, int *col);

int db_sequences_drop_temp(attu_session *s, attu_error *err) {
    if (!db_sequences_has_temp(s)) return 0;
    db_write_lock(s);
    db_sequences *q = s->db->seqs;
    pthread_mutex_lock(&q->mu);
    int rc = 0;
    for (int i = q->n - 1; i >= 0 && !rc; i--) {
        const attu_sequence *x = q->e[i].seq;
        if (x->temp_owner != (const void *)s) continue;
        /* PostgreSQL drops the session's schema with CASCADE: a DEFAULT
         * nextval of the sequence (a permanent table's too) goes with it.
         * The DEFAULT keeps the name, not the sequence: where a permanent
         * sequence of that name is left, the DEFAULT now draws from it. */
        const attu_table *t;
        int col;
        while (!rc && find_on(q, s, x->name, ATTU_LAYER_BASE) < 0 && used_by_default(s, x->name, &t, &col))
            if (attu_catalog_set_default(db_cat(s), t->name, col, NULL, err) || db_save_table(s, t, err)) rc = -1;
        if (!rc) remove_at(q, i);
    }
    /* (never in the file; saved all the same, as every change is, so the
     * committed file stays what the list says) */
    if (!rc) rc = save(s->db, err);
    pthread_mutex_unlock(&q->mu);
    pthread_rwlock_unlock(&s->db->lock);
    return rc;
}

int db_sequences_drop_owned(attu_session *s, const char *table, attu_error *err) { return each_owned(s, table, true, err); }
int db_sequences_restart_owned(attu_session *s, const char *table, attu_error *err) { return each_owned(s, table, false, err); }

int db_sequences_save(attu_session *s, attu_error *err) {
    pthread_mutex_lock(&s->db->seqs->mu);
    int rc = save(s->db, err);
    pthread_mutex_unlock(&s->db->seqs->mu);
    return rc;
}

/* ---- CREATE SEQUENCE, DROP SEQUENCE ----------------------------------------------------------- */

/* AS type of CREATE / ALTER SEQUENCE into o->type. */
static int sequence_as(const attu_ast_stmt *st, attu_sequence_options *o, attu_error *err) {
    const attu_ast_typename *as = &st->u.create_sequence.as;
    if (!as->name) return 0;
    attu_type t;
    if (attu_type_from_name(as->name, as->precision, as->scale, &t, err)) { err->position = as->position; return -1; }
    if (!int_type(t.id)) return attu_error_set(err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "sequence type must be smallint, integer, or bigint");
    o->type = t.id;
    return 0;
}

/* OWNED BY table.column / NONE of CREATE or ALTER SEQUENCE onto seq (its
 * owner replaced only on success). The caller holds the database's write
 * lock and mu. */
static int owned_by(attu_session *s, const attu_ast_stmt *st, attu_sequence *seq, attu_error *err) {
    if (!st->u.create_sequence.has_owned) return 0;
    if (seq->identity) {
        attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "cannot change ownership of identity sequence");
        attu_error_set_detail(err, "Sequence \"%s\" is linked to table \"%s\".", seq->name, seq->owner_table);
        return -1;
    }
    char *table = NULL, *column = NULL;
    if (!st->u.create_sequence.owned_none) {
        const char *tn = st->u.create_sequence.owned_table, *cn = st->u.create_sequence.owned_column;
        /* (the search path's table, whichever side the statement works
         * on: a temporary sequence's table must be temporary, a permanent
         * one's permanent, as PostgreSQL wants them in one schema) */
        const attu_table *t = attu_catalog_lookup_side(db_cat(s), tn, ATTU_LAYER_AUTO);
        if (t && attu_catalog_is_top(db_cat(s), t) != (seq->temp_owner != NULL))
            return attu_error_set(err, "55000", 0, "sequence must be in same schema as table it is linked to");
        if (!t) {
            if (find(s->db->seqs, s, tn) >= 0) {
                attu_error_set(err, "42809", 0, "sequence cannot be owned by relation \"%s\"", tn);
                attu_error_set_detail(err, "This operation is not supported for sequences.");
                return -1;
            }
            if (attu_views_find(attu_catalog_views(db_cat(s)), tn))
                return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "a sequence owned by a view is not supported");
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "relation \"%s\" does not exist", tn);
        }
        if (attu_table_find_column(t, cn) < 0)
            return attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_COLUMN, 0, "column \"%s\" of relation \"%s\" does not exist", cn, tn);
        if (!(table = strdup(t->name)) || !(column = strdup(cn))) { free(table); free(column); return attu_error_oom(err); }
    }
    free(seq->owner_table);
    free(seq->owner_column);
    seq->owner_table = table;
    seq->owner_column = column;
    return 0;
}

int db_exec_create_sequence(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    const char *name = st->u.create_sequence.name;
    attu_sequence_options o = st->u.create_sequence.options;
    if (sequence_as(st, &o, err)) return -1;
    db_write_lock(s);
    db_sequences *q = s->db->seqs;
    pthread_mutex_lock(&q->mu);
    int rc = 0;
    bool skipped = false;
    /* a temporary sequence lives in the session's pg_temp, where only its
     * own temporary relations take names; a permanent one in public (the
     * temporary catalog's layer is on the matching side: db/db_temp.c) */
    bool temp = st->u.create_sequence.temp;
    if (temp && st->schema == ATTU_REL_PUBLIC)
        rc = attu_error_set(err, "42P16", 0, "cannot create temporary relation in non-temporary schema");
    else if (find_on(q, s, name, temp ? ATTU_LAYER_TOP : ATTU_LAYER_BASE) >= 0 ||
             attu_catalog_relation_exists(db_cat(s), name)) {
        if (st->u.create_sequence.if_not_exists) skipped = true;
        else rc = attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists", name);
    } else {
        attu_sequence *seq = attu_sequence_new(name, &o, err);
        if (seq) seq->temp_owner = temp ? s : NULL;
        if (!seq) rc = -1;
        else if (owned_by(s, st, seq, err)) { attu_sequence_free(seq); rc = -1; }
        else if (add(q, seq, err)) { attu_sequence_free(seq); rc = -1; }
        else if (save(s->db, err)) { remove_at(q, q->n - 1); rc = -1; }
    }
    pthread_mutex_unlock(&q->mu);
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    if (skipped && cb && cb->on_notice) {
        char msg[200];
        snprintf(msg, sizeof msg, "relation \"%s\" already exists, skipping", name);
        cb->on_notice(cb->ctx, "42P07", msg);
    }
    return db_deliver_tag(cb, "CREATE SEQUENCE", err) ? -2 : 0;
}

/* The first column DEFAULT of any table that draws from sequence name:
 * *table and *col (the caller holds the database's lock and mu). */
static bool used_by_default(attu_session *s, const char *name, const attu_table **table, int *col) {
    size_t nt = attu_catalog_count(db_cat(s));
    for (size_t i = 0; i < nt; i++) {
        const attu_table *t = attu_catalog_at(db_cat(s), i);
        for (int c = 0; c < t->ncols; c++) {
            char *d = db_default_sequence(attu_catalog_default(db_cat(s), t->name, c));
            bool hit = d && !strcmp(d, name);
            free(d);
            if (hit) { *table = t; *col = c; return true; }
        }
    }
    return false;
}

int db_exec_drop_sequence(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    const attu_ast_name_list *names = &st->u.drop_table.tables;
    db_write_lock(s);
    db_sequences *q = s->db->seqs;
    pthread_mutex_lock(&q->mu);
    int rc = 0;
    /* check all first: nothing is dropped when one fails */
    for (int i = 0; i < names->n && !rc; i++) {
        const char *name = names->items[i];
        int pos = names->positions ? names->positions[i] : st->position;
        int side = seq_side(names->schemas ? names->schemas[i] : 0);
        int k = find_on(q, s, name, side);
        if (k < 0 && side == ATTU_LAYER_TOP && !s->temp) {
            /* (pg_temp.x before the session has a temporary schema: no
             * schema, as PostgreSQL says; IF EXISTS passes by below) */
            if (!st->u.drop_table.if_exists) rc = attu_error_set(err, "3F000", 0, "schema \"pg_temp\" does not exist");
            continue;
        }
        if (k < 0) {
            if (attu_catalog_lookup(db_cat(s), name)) {
                rc = attu_error_set(err, "42809", pos, "\"%s\" is not a sequence", name);
                snprintf(err->hint, sizeof err->hint, "Use DROP TABLE to remove a table.");
            } else if (!st->u.drop_table.if_exists)
                rc = attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, pos, "sequence \"%s\" does not exist", name);
            continue;
        }
        const attu_sequence *x = q->e[k].seq;
        const attu_table *t;
        int col;
        if (x->identity) {
            rc = attu_error_set(err, "2BP01", 0, "cannot drop sequence %s because column %s of table %s requires it", name,
                                x->owner_column, x->owner_table);
            snprintf(err->hint, sizeof err->hint, "You can drop column %s of table %s instead.", x->owner_column, x->owner_table);
        } else if (used_by_default(s, name, &t, &col) && !st->u.drop_table.cascade) {
            rc = attu_error_set(err, "2BP01", 0, "cannot drop sequence %s because other objects depend on it", name);
            snprintf(err->detail, sizeof err->detail, "default value for column %s of table %s depends on sequence %s",
                     t->defs[col].name, t->name, name);
            snprintf(err->hint, sizeof err->hint, "Use DROP ... CASCADE to drop the dependent objects too.");
        }
    }
    bool changed = false;
    for (int i = 0; i < names->n && !rc; i++) {
        const char *name = names->items[i];
        int side = seq_side(names->schemas ? names->schemas[i] : 0);
        int k = find_on(q, s, name, side);
        if (k < 0) {
            if (cb && cb->on_notice) {
                char msg[200];
                if (side == ATTU_LAYER_TOP && !s->temp) snprintf(msg, sizeof msg, "schema \"pg_temp\" does not exist, skipping");
                else snprintf(msg, sizeof msg, "sequence \"%s\" does not exist, skipping", name);
                cb->on_notice(cb->ctx, "00000", msg);
            }
            continue;
        }
        /* CASCADE: the DEFAULTs that draw from it go first */
        const attu_table *t;
        int col;
        while (!rc && used_by_default(s, name, &t, &col)) {
            if (cb && cb->on_notice) {
                char msg[300];
                snprintf(msg, sizeof msg, "drop cascades to default value for column %s of table %s", t->defs[col].name, t->name);
                cb->on_notice(cb->ctx, "00000", msg);
            }
            if (attu_catalog_set_default(db_cat(s), t->name, col, NULL, err) || db_save_table(s, t, err)) rc = -1;
        }
        if (!rc) { remove_at(q, k); changed = true; }
    }
    attu_error e2;
    attu_error_clear(&e2);
    if (changed && save(s->db, rc ? &e2 : err) && !rc) rc = -1;
    pthread_mutex_unlock(&q->mu);
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    return db_deliver_tag(cb, "DROP SEQUENCE", err) ? -2 : 0;
}

/* ---- what a drop of a sequence's owner takes along ---------------------------------------------- */

/* Whether table.col is among the DEFAULTs that go anyway: a column of a
 * table being dropped, or the column itself being dropped. */
static bool going(const char *table, const char *col, const char *const *tables, int ntables, const char *column) {
    if (column) return !strcmp(table, tables[0]) && !strcmp(col, column);
    for (int i = 0; i < ntables; i++) if (!strcmp(table, tables[i])) return true;
    return false;
}

bool db_sequence_owned_by(attu_session *s, const char *name, const char *table, const char *column) {
    db_sequences *q = s->db->seqs;
    pthread_mutex_lock(&q->mu);
    int k = find(q, s, name);
    const attu_sequence *x = k >= 0 ? q->e[k].seq : NULL;
    bool r = x && x->owner_column && seq_owned(s, x, table) && !strcmp(x->owner_column, column);
    pthread_mutex_unlock(&q->mu);
    return r;
}

int db_sequences_owner_dependents(attu_session *s, const char *const *tables, int ntables, const char *column,
                                  bool cascade, bool cascade_other_tables, const attu_exec_callbacks *cb, attu_error *err) {
    db_sequences *q = s->db->seqs;
    pthread_mutex_lock(&q->mu);
    int rc = 0;
    size_t nt = attu_catalog_count(db_cat(s));
    for (int i = 0; i < q->n && !rc; i++) {
        const attu_sequence *x = q->e[i].seq;
        if (!x->owner_table || !x->owner_column) continue;
        bool owned = false;
        for (int k = 0; k < ntables && !owned; k++)
            owned = seq_owned(s, x, tables[k]) && (!column || !strcmp(x->owner_column, column));
        if (!owned) continue;
        for (size_t ti = 0; ti < nt && !rc; ti++) {
            const attu_table *t = attu_catalog_at(db_cat(s), ti);
            for (int c = 0; c < t->ncols && !rc; c++) {
                char *d = db_default_sequence(attu_catalog_default(db_cat(s), t->name, c));
                bool hit = d && !strcmp(d, x->name) && !going(t->name, t->defs[c].name, tables, ntables, column);
                free(d);
                if (!hit) continue;
                if (!cascade) {
                    if (column)
                        attu_error_set(err, "2BP01", 0, "cannot drop column %s of table %s because other objects depend on it",
                                       column, tables[0]);
                    else
                        attu_error_set(err, "2BP01", 0, "cannot drop table %s because other objects depend on it", x->owner_table);
                    attu_error_set_detail(err, "default value for column %s of table %s depends on sequence %s", t->defs[c].name,
                                          t->name, x->name);
                    attu_error_set_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
                    rc = -1;
                } else if (!cascade_other_tables && column && !strcmp(t->name, tables[0])) {
                    continue;   /* (the caller drops its own table's DEFAULTs) */
                } else if (!cascade_other_tables) {
                    rc = attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                                        "DROP COLUMN ... CASCADE of a column whose sequence another table's DEFAULT draws from "
                                        "is not supported; drop that DEFAULT first");
                } else {
                    if (cb && cb->on_notice) {
                        char msg[300];
                        snprintf(msg, sizeof msg, "drop cascades to default value for column %s of table %s", t->defs[c].name, t->name);
                        cb->on_notice(cb->ctx, "00000", msg);
                    }
                    if (attu_catalog_set_default(db_cat(s), t->name, c, NULL, err) || db_save_table(s, t, err)) rc = -1;
                }
            }
        }
    }
    pthread_mutex_unlock(&q->mu);
    return rc;
}

/* ---- ALTER SEQUENCE ---------------------------------------------------------------------------- */

/* RENAME TO: the sequence and every DEFAULT nextval that names it (the
 * DEFAULT keeps the name as text, where PostgreSQL keeps the OID). The
 * caller holds the write lock and mu. */
static int rename_sequence(attu_session *s, int k, const char *to, attu_error *err) {
    db_sequences *q = s->db->seqs;
    attu_sequence *x = q->e[k].seq;
    /* (the new name must be free on the sequence's own side) */
    if (find_on(q, s, to, x->temp_owner ? ATTU_LAYER_TOP : ATTU_LAYER_BASE) >= 0 || attu_catalog_relation_exists(db_cat(s), to))
        return attu_error_set(err, ATTU_SQLSTATE_DUPLICATE_TABLE, 0, "relation \"%s\" already exists", to);
    char *old = x->name, *nn = strdup(to), *text = default_text(to);
    if (!nn || !text) { free(nn); free(text); return attu_error_oom(err); }
    x->name = nn;
    int rc = save(s->db, err);
    /* the DEFAULTs: set and saved table by table, put back on a failure */
    size_t nt = attu_catalog_count(db_cat(s)), done = 0;
    for (; !rc && done < nt; done++) {
        const attu_table *t = attu_catalog_at(db_cat(s), done);
        bool hit = false;
        for (int c = 0; c < t->ncols && !rc; c++) {
            char *d = db_default_sequence(attu_catalog_default(db_cat(s), t->name, c));
            if (d && !strcmp(d, old)) { hit = true; rc = attu_catalog_set_default(db_cat(s), t->name, c, text, err); }
            free(d);
        }
        if (!rc && hit) rc = db_save_table(s, t, err);
    }   /* (done: one past the last table touched, the failing one included) */
    if (rc) {
        char *back = default_text(old);
        attu_error e2;
        attu_error_clear(&e2);
        for (size_t i = 0; back && i < done; i++) {
            const attu_table *t = attu_catalog_at(db_cat(s), i);
            bool hit = false;
            for (int c = 0; c < t->ncols; c++) {
                char *d = db_default_sequence(attu_catalog_default(db_cat(s), t->name, c));
                if (d && !strcmp(d, to)) { hit = true; attu_catalog_set_default(db_cat(s), t->name, c, back, &e2); }
                free(d);
            }
            if (hit) db_save_table(s, t, &e2);
        }
        free(back);
        x->name = old;
        free(nn);
        save(s->db, &e2);
    } else free(old);
    free(text);
    return rc;
}

int db_exec_alter_sequence(attu_session *s, const attu_ast_stmt *st, const attu_exec_callbacks *cb, attu_error *err) {
    const char *name = st->u.create_sequence.name;
    attu_sequence_options o = st->u.create_sequence.options;
    if (sequence_as(st, &o, err)) return -1;
    db_write_lock(s);
    db_sequences *q = s->db->seqs;
    pthread_mutex_lock(&q->mu);
    int rc = 0, k = find_on(q, s, name, seq_side(st->schema));
    bool skipped = false;
    if (k < 0) {
        if (attu_catalog_relation_exists(db_cat(s), name)) rc = attu_error_set(err, "42809", 0, "\"%s\" is not a sequence", name);
        else if (st->u.create_sequence.if_exists) skipped = true;
        else rc = attu_error_set(err, ATTU_SQLSTATE_UNDEFINED_TABLE, 0, "relation \"%s\" does not exist", name);
    } else if (st->u.create_sequence.new_name) {
        rc = rename_sequence(s, k, st->u.create_sequence.new_name, err);
    } else {
        /* the options and the owner on a copy: the sequence changes only
         * once all of them are checked and the file is written */
        attu_sequence *x = q->e[k].seq, y = *x;
        y.owner_table = y.owner_column = NULL;
        if ((x->owner_table && !(y.owner_table = strdup(x->owner_table))) ||
            (x->owner_column && !(y.owner_column = strdup(x->owner_column))))
            rc = attu_error_oom(err);
        if (!rc) rc = attu_sequence_alter(&y, &o, err);
        if (!rc) rc = owned_by(s, st, &y, err);
        if (!rc) {
            attu_sequence before = *x;
            *x = y;
            q->e[k].rewritten = true;
            if ((rc = save(s->db, err))) { y = *x; *x = before; }
            else { y.owner_table = before.owner_table; y.owner_column = before.owner_column; }
        }
        free(y.owner_table);
        free(y.owner_column);
    }
    pthread_mutex_unlock(&q->mu);
    pthread_rwlock_unlock(&s->db->lock);
    if (rc) return rc;
    if (skipped && cb && cb->on_notice) {
        char msg[200];
        snprintf(msg, sizeof msg, "relation \"%s\" does not exist, skipping", name);
        cb->on_notice(cb->ctx, "00000", msg);
    }
    return db_deliver_tag(cb, "ALTER SEQUENCE", err) ? -2 : 0;
}

/* ---- ALTER TABLE: identity columns ---------------------------------------------------------- */

/* The identity sequence of table.column, -1 when none (mu held). */
static int find_identity(const db_sequences *q, const char *table, const char *column) {
    for (int i = 0; i < q->n; i++) {
        const attu_sequence *x = q->e[i].seq;
        if (x->identity && x->owner_table && !strcmp(x->owner_table, table) && !strcmp(x->owner_column, column)) return i;
    }
    return -1;
}

int db_sequence_set_identity(attu_session *s, const char *table, const char *column, char generated,
                             const attu_sequence_options *o, attu_error *err) {
    db_sequences *q = s->db->seqs;
    pthread_mutex_lock(&q->mu);
    int rc = 0, k = find_identity(q, table, column);
    if (k < 0) rc = attu_error_set(err, "55000", 0, "column \"%s\" of relation \"%s\" is not an identity column", column, table);
    else {
        attu_sequence *x = q->e[k].seq, before = *x;
        if (!(rc = attu_sequence_alter(x, o, err))) {
            q->e[k].rewritten = true;
            if (generated) x->identity = generated;
            if ((rc = save(s->db, err))) *x = before;
        }
    }
    pthread_mutex_unlock(&q->mu);
    return rc;
}

int db_sequence_drop_identity(attu_session *s, const char *table, const char *column, attu_error *err) {
    db_sequences *q = s->db->seqs;
    pthread_mutex_lock(&q->mu);
    int rc = 0, k = find_identity(q, table, column);
    if (k >= 0) {
        remove_at(q, k);
        rc = save(s->db, err);
    }
    pthread_mutex_unlock(&q->mu);
    return rc;
}

/* ---- ALTER TABLE: owned sequences follow their columns ---------------------------------------- */

/* A copy of every sequence (their counters included), as text lines:
 * ALTER TABLE takes one before it changes sequences and puts it back when
 * the statement fails, so that a failed ALTER leaves them as they were. */

void db_seq_snapshot_free(db_seq_snapshot *snap) {
    if (!snap) return;
    for (int i = 0; i < snap->n; i++) free(snap->lines[i]);
    free(snap->lines);
    free(snap->ids);
    free(snap->owners);
    free(snap);
}

db_seq_snapshot *db_sequences_snapshot(attu_session *s, attu_error *err) {
    db_sequences *q = s->db->seqs;
    pthread_mutex_lock(&q->mu);
    db_seq_snapshot *snap = calloc(1, sizeof *snap);
    bool ok = snap && (snap->lines = calloc((size_t)q->n + 1, sizeof *snap->lines)) &&
              (snap->ids = calloc((size_t)q->n + 1, sizeof *snap->ids)) &&
              (snap->owners = calloc((size_t)q->n + 1, sizeof *snap->owners));
    for (int i = 0; ok && i < q->n; i++) {
        ok = (snap->lines[i] = attu_sequence_format(q->e[i].seq)) != NULL;
        snap->ids[i] = q->e[i].id;
        snap->owners[i] = q->e[i].seq->temp_owner;
        snap->n = i + 1;
    }
    if (ok) snap->next_id = q->next_id;
    pthread_mutex_unlock(&q->mu);
    if (!ok) { db_seq_snapshot_free(snap); attu_error_oom(err); return NULL; }
    return snap;
}

/* The sequences as snap holds them (parsed first, so a bad line changes
 * nothing), each entry's "rewritten" flag kept by id. keep_numbers: a
 * sequence that lives on and was not rewritten since keeps the numbers
 * drawn since the snapshot (nextval is never given back: a transaction's
 * undo); else the snapshot's numbers come back too (an ALTER that failed
 * puts everything back). */
static int restore_snapshot(attu_session *s, const db_seq_snapshot *snap, bool keep_numbers, attu_error *err) {
    db_sequences *q = s->db->seqs;
    attu_sequence **seqs = calloc((size_t)snap->n + 1, sizeof *seqs);
    if (!seqs) return attu_error_oom(err);
    for (int i = 0; i < snap->n; i++)
        if (!(seqs[i] = attu_sequence_parse(snap->lines[i], err))) {
            for (int k = 0; k < i; k++) attu_sequence_free(seqs[k]);
            free(seqs);
            return -1;
        } else {
            seqs[i]->temp_owner = snap->owners ? snap->owners[i] : NULL;
        }
    pthread_mutex_lock(&q->mu);
    int rc = 0;
    if (q->cap < snap->n) {
        seq_entry *ne = realloc(q->e, sizeof *ne * (size_t)snap->n);
        if (!ne) rc = attu_error_oom(err);
        else { q->e = ne; q->cap = snap->n; }
    }
    if (!rc) {
        for (int i = 0; keep_numbers && i < snap->n; i++)
            for (int k = 0; k < q->n; k++)
                if (q->e[k].id == snap->ids[i] && !q->e[k].rewritten) {
                    seqs[i]->last_value = q->e[k].seq->last_value;
                    seqs[i]->is_called = q->e[k].seq->is_called;
                }
        bool *was = calloc((size_t)snap->n + 1, sizeof *was);   /* (flags kept by id; NULL: none kept) */
        for (int i = 0; was && i < snap->n; i++)
            for (int k = 0; k < q->n; k++) if (q->e[k].id == snap->ids[i]) was[i] = q->e[k].rewritten;
        for (int k = 0; k < q->n; k++) attu_sequence_free(q->e[k].seq);
        for (int i = 0; i < snap->n; i++) {
            q->e[i].seq = seqs[i];
            q->e[i].id = snap->ids[i];
            q->e[i].rewritten = was && was[i];
        }
        free(was);
        q->n = snap->n;
        /* (ids are never handed out twice: a session's currval of a
         * sequence made and undone stays with no sequence) */
        if (snap->next_id > q->next_id) q->next_id = snap->next_id;
        rc = save(s->db, err);
    } else {
        for (int i = 0; i < snap->n; i++) attu_sequence_free(seqs[i]);
    }
    pthread_mutex_unlock(&q->mu);
    free(seqs);
    return rc;
}

int db_sequences_restore(attu_session *s, const db_seq_snapshot *snap, attu_error *err) {
    return restore_snapshot(s, snap, false, err);
}

int db_sequences_set_base(attu_db *db, const db_seq_snapshot *base, attu_error *err) {
    pthread_mutex_lock(&db->seqs->mu);
    bool had = db->seq_base != NULL;
    db->seq_base = base;
    if (!base)   /* the transaction is over: nothing is rewritten in the next one yet */
        for (int i = 0; i < db->seqs->n; i++) db->seqs->e[i].rewritten = false;
    int rc = had && !base ? save(db, err) : 0;
    pthread_mutex_unlock(&db->seqs->mu);
    return rc;
}

int db_sequences_txn_undo(attu_session *s, const db_seq_snapshot *snap, attu_error *err) {
    /* a sequence that lives on keeps the numbers drawn since (nextval is
     * never given back); one made since goes, one dropped since comes
     * back as it was */
    return restore_snapshot(s, snap, true, err);
}

int db_sequences_follow_table(attu_session *s, const char *table, const char *new_table, int n,
                              const char *const *old_cols, const char *const *new_cols, attu_error *err) {
    db_sequences *q = s->db->seqs;
    pthread_mutex_lock(&q->mu);
    bool changed = false;
    int rc = 0;
    for (int i = q->n - 1; i >= 0 && !rc; i--) {
        attu_sequence *x = q->e[i].seq;
        if (!seq_owned(s, x, table)) continue;
        int c = -1;
        for (int k = 0; k < n && c < 0; k++) if (!strcmp(old_cols[k], x->owner_column)) c = k;
        if (c < 0) continue;   /* (a column this ALTER made: already right) */
        changed = true;
        if (!new_cols[c]) { remove_at(q, i); continue; }   /* its column was dropped */
        char *nt = strdup(new_table), *nc = strdup(new_cols[c]);
        if (!nt || !nc) { free(nt); free(nc); rc = attu_error_oom(err); break; }
        free(x->owner_table);
        free(x->owner_column);
        x->owner_table = nt;
        x->owner_column = nc;
    }
    if (!rc && changed) rc = save(s->db, err);
    pthread_mutex_unlock(&q->mu);
    return rc;
}

int db_sequence_retype_identity(attu_session *s, const char *table, const char *column, attu_type_id type,
                                attu_error *err) {
    db_sequences *q = s->db->seqs;
    pthread_mutex_lock(&q->mu);
    int rc = 0, k = find_identity(q, table, column);
    if (k >= 0) {
        /* as ALTER SEQUENCE ... AS type: a bound that was the old type's
         * own becomes the new type's */
        attu_sequence_options o;
        memset(&o, 0, sizeof o);
        o.type = type;
        attu_sequence *x = q->e[k].seq, before = *x;
        q->e[k].rewritten = true;
        if (!(rc = attu_sequence_alter(x, &o, err)) && (rc = save(s->db, err))) *x = before;
    }
    pthread_mutex_unlock(&q->mu);
    return rc;
}
