/*
 * catalog_functions.c - the catalog functions PostgreSQL clients' queries
 * call (format_type, pg_get_userbyid, pg_table_is_visible, pg_get_expr,
 * obj_description, current_schema(), version(), ...) and
 * the casts to regclass, regtype and regnamespace (and to oid, name and
 * the catalog's other types, as attu has them).
 *
 * Each function is a macro: a SQL expression over its arguments, written
 * here as text with $1, $2, ... (format_type is a CASE over the type OIDs,
 * pg_get_userbyid one over the role OIDs, oid::regclass one over the user
 * tables' OIDs as they are at bind time), parsed and bound in place of the
 * call, each $k binding the call's k-th argument where it stands. So the
 * functions need no opcode of their own: they run on the CPU and GPU
 * backends as the CASE, comparisons and casts they are made of do.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "planner/system_catalog_internal.h"
#include "engine/role.h"
#include "engine/domain_type.h"
#include "engine/enum_type.h"

#include "engine/sequence.h"
#include "engine/sql_function.h"

/* The WHEN arms naming a user-defined type and its array type by their
 * OIDs. */
static void type_arms(sbuf *b, const char *name, unsigned oid, unsigned array_oid) {
    char arr[96];
    syscat_sb_printf(b, " WHEN $1 = %u THEN ", oid);
    syscat_sb_quote(b, name);
    snprintf(arr, sizeof arr, "%s[]", name);
    syscat_sb_printf(b, " WHEN $1 = %u THEN ", array_oid);
    syscat_sb_quote(b, arr);
}

/* ... of the enum types (engine/enum_type.h) */
static void enum_arm(void *ctx, const attu_enum_def *d) {
    type_arms(ctx, d->name, attu_enum_oid(d->id), attu_enum_array_oid(d->id));
}

/* ... of the domains (engine/domain_type.h) */
static void domain_arm(void *ctx, const attu_domain_def *d) {
    type_arms(ctx, d->name, attu_domain_oid(d->id), attu_domain_array_oid(d->id));
}

/* The start of a CASE whose arms are the user relations (or views): a
 * first arm that holds whatever there is, so that a database without any
 * is still a CASE with a WHEN (NULL gives NULL, as the ELSE would). */
#define CASE_FIRST_ARM(type) "CASE WHEN $1 IS NULL THEN NULL::" type

/* The body of a catalog function: a SQL expression over $1, $2, ... (its
 * arguments), written to b; false when the function takes no such count
 * of arguments. */
typedef bool (*macro_fn)(bctx *c, sbuf *b, int nargs);

/* (each created role's arm: engine/role.h) */
static void userbyid_arm(void *ctx, const attu_role *r) {
    sbuf *b = ctx;
    syscat_sb_printf(b, " WHEN $1 = %u THEN ", r->oid);
    syscat_sb_quote(b, r->name);
}
static bool m_userbyid(bctx *c, sbuf *b, int n) {
    if (n != 1) return false;
    syscat_sb_printf(b, "CASE WHEN $1 = %d THEN ", OID_USER);
    syscat_sb_quote(b, syscat_bootstrap_user(c));
    if (c->cat) attu_role_each(attu_catalog_comments(c->cat), userbyid_arm, b);
    syscat_sb_printf(b, " WHEN $1 = %d THEN 'pg_database_owner' ELSE 'unknown (OID=' || $1 || ')' END", OID_DB_OWNER);
    return true;
}
static bool m_current_database(bctx *c, sbuf *b, int n) {
    if (n != 0) return false;
    syscat_sb_quote(b, syscat_database(c));
    syscat_sb_puts(b, "::text");
    return true;
}
/* current_user / current_role / user: SET ROLE's role, else the session
 * user; session_user: SET SESSION AUTHORIZATION's, else the connected
 * user (the db layer hands both over; without it the connected user). */
static bool user_name_body(bctx *c, sbuf *b, int n, const char *u) {
    if (n != 0) return false;
    syscat_sb_quote(b, u ? u : syscat_user(c));
    syscat_sb_puts(b, "::text");
    return true;
}
static bool m_current_user(bctx *c, sbuf *b, int n) {
    return user_name_body(c, b, n, c->params ? c->params->current_user : NULL);
}
static bool m_session_user(bctx *c, sbuf *b, int n) {
    return user_name_body(c, b, n, c->params ? c->params->session_user : NULL);
}

/* The pseudo-types' names by OID (format_type's and regtype's arms). */
static void pseudo_type_arms(sbuf *b) {
    for (size_t i = 0; i < syscat_n_pseudo_types; i++) {
        syscat_sb_printf(b, " WHEN $1 = %d THEN ", syscat_pseudo_types[i].oid);
        syscat_sb_quote(b, syscat_pseudo_types[i].name);
    }
}

/* format_type(oid, typmod): each type by its OID, decoding the modifiers
 * of numeric, varchar and bpchar; the other modifiers (a qualified
 * interval's, an array's element's) as the user tables' columns have them,
 * each once; NULL for an unknown OID, as PostgreSQL's "???" is rare enough
 * that NULL serves. */
static bool m_format_type(bctx *c, sbuf *b, int n) {
    if (n != 2) return false;
    syscat_sb_puts(b, "CASE");
    syscat_rels rs;
    if (!syscat_rels_load(c, &rs)) { b->oom = true; return true; }
    /* each (oid, typmod) with a modifier once (a table's or view's column) */
    for (size_t i = 0; i < rs.n; i++) {
        const rel_info *ri = &rs.r[i];
        int ncols = ri->kind == 'r' || ri->kind == 'm' ? ri->t->ncols : ri->kind == 'v' ? ri->v->ncols : 0;
        for (int k = 0; k < ncols; k++) {
            attu_type t = ri->kind == 'r' || ri->kind == 'm' ? ri->t->defs[k].type : ri->v->col_types[k];
            int32_t mod = syscat_type_modifier(t);
            if (mod < 0 || (!attu_type_is_array(t) && t.id != ATTU_TYPE_INTERVAL)) continue;
            char buf[128], arm[64];
            snprintf(arm, sizeof arm, " WHEN $1 = %u AND $2 = %d THEN ", attu_type_pg_oid(t), mod);
            if (b->p && strstr(b->p, arm)) continue;   /* this one's arm is there */
            syscat_sb_puts(b, arm);
            syscat_sb_quote(b, syscat_format_type(t, buf, sizeof buf));
        }
    }
    syscat_rels_free(&rs);
    syscat_sb_puts(b, " WHEN $1 = 1700 AND $2 >= 4 THEN 'numeric(' || (($2 - 4) / 65536) || ',' || (($2 - 4) % 65536) || ')'"
               " WHEN $1 = 1043 AND $2 >= 4 THEN 'character varying(' || ($2 - 4) || ')'"
               " WHEN $1 = 1042 AND $2 >= 4 THEN 'character(' || ($2 - 4) || ')'"
               " WHEN $1 = 1042 AND $2 IS NOT NULL THEN 'bpchar'");
    attu_enum_each(attu_catalog_comments(c->cat), enum_arm, b);
    attu_domain_each(attu_catalog_comments(c->cat), domain_arm, b);
    for (size_t i = 0; i < syscat_n_pg_types; i++) {
        syscat_sb_printf(b, " WHEN $1 = %d THEN ", syscat_pg_types[i].oid);
        syscat_sb_quote(b, syscat_pg_types[i].format);
        syscat_sb_printf(b, " WHEN $1 = %d THEN ", syscat_pg_types[i].array);
        char arr[96];
        snprintf(arr, sizeof arr, "%s[]", syscat_pg_types[i].format);
        syscat_sb_quote(b, arr);
    }
    pseudo_type_arms(b);
    syscat_sb_puts(b, " ELSE NULL::text END");
    return true;
}

/* What a table's columns hold, as width x rows (an estimate: attu's
 * columns are not PostgreSQL's pages). */
static int64_t table_bytes(const attu_table *t) {
    int64_t w = 0;
    for (int k = 0; k < t->ncols; k++) {
        int16_t l = attu_type_pg_len(t->defs[k].type);
        w += l > 0 ? l : 16;
    }
    return w * (int64_t)t->nrows;
}

/* pg_table_size and friends: a table's table_bytes, a sequence's and an
 * index's one page (PostgreSQL's 8192), a view's nothing */
static bool m_table_size(bctx *c, sbuf *b, int n) {
    if (n != 1) return false;
    syscat_rels rs;
    if (!syscat_rels_load(c, &rs)) { b->oom = true; return true; }
    syscat_sb_puts(b, CASE_FIRST_ARM("bigint"));
    for (size_t i = 0; i < rs.n; i++)
        syscat_sb_printf(b, " WHEN $1 = %lld THEN %lld::bigint", (long long)rs.r[i].oid,
                         (long long)(rs.r[i].kind == 'r' || rs.r[i].kind == 'm' ? table_bytes(rs.r[i].t) : rs.r[i].kind == 'v' ? 0 : 8192));
    syscat_rels_free(&rs);
    syscat_sb_puts(b, " ELSE NULL::bigint END");
    return true;
}

/* A lookup of names that reads its key once (a macro's $k binds its
 * argument anew wherever it stands, so nested macros multiply): the
 * value beside the key among (key, value) pairs, NULL for none, as
 * (ARRAY[values])[array_position(ARRAY[keys], key)]. A quoted name's keys
 * compare as written; the others (unquoted, so folded as a name is read)
 * with the key in lower case: two lists. */
typedef struct name_lookup {
    sbuf keys[2], values[2];   /* [0] folded, [1] as written */
    int  n[2];
} name_lookup;

static void lookup_add(name_lookup *l, bool as_written, const char *key, const char *value_sql) {
    const int w = as_written ? 1 : 0;
    syscat_sb_puts(&l->keys[w], l->n[w] ? ", " : "");
    syscat_sb_quote(&l->keys[w], key);
    syscat_sb_printf(&l->values[w], "%s%s", l->n[w] ? ", " : "", value_sql);
    l->n[w]++;
}

/* Writes COALESCE(<folded lookup>, <as-written lookup>) of the key
 * expressions folded_key / key (each naming $k once), of type type, and
 * frees l. */
static void lookup_write(sbuf *b, name_lookup *l, const char *folded_key, const char *key, const char *type) {
    syscat_sb_printf(b, "COALESCE(NULL::%s", type);
    for (int w = 0; w < 2; w++) {
        if (l->n[w]) {
            syscat_sb_printf(b, ", (ARRAY[%s]::%s[])[array_position(ARRAY[%s]::text[], %s)]", l->values[w].p, type,
                             l->keys[w].p, w ? key : folded_key);
        }
        if (l->keys[w].oom || l->values[w].oom) b->oom = true;
        free(l->keys[w].p);
        free(l->values[w].p);
    }
    syscat_sb_puts(b, ")");
}

/* Relation name's two spellings (as quote_ident writes it, alone and
 * after schema.), each followed by suffix, as keys of value_sql. */
static void lookup_relation(name_lookup *l, const char *schema, const char *name, const char *suffix,
                            const char *value_sql) {
    sbuf id = {0}, qual = {0};
    syscat_sb_ident(&id, name);
    syscat_sb_puts(&id, suffix);
    syscat_sb_printf(&qual, "%s.", schema);
    syscat_sb_ident(&qual, name);
    syscat_sb_puts(&qual, suffix);
    if (id.p && qual.p && !id.oom && !qual.oom) {
        const bool quoted = id.p[0] == '"';
        lookup_add(l, quoted, id.p, value_sql);
        lookup_add(l, quoted, qual.p, value_sql);
    } else {
        l->keys[0].oom = true;
    }
    free(id.p);
    free(qual.p);
}

/* pg_get_serial_sequence(table, column) of values read at run time
 * (SQLAlchemy's pg_get_serial_sequence(a.attrelid::regclass::text,
 * a.attname); constants are the db layer's, planner/sequence_functions.c,
 * with PostgreSQL's errors): the sequence a serial or identity column
 * owns, schema-qualified and quoted as PostgreSQL writes it
 * ('public.t_id_seq'), NULL for a column that owns none. The table is
 * matched as written or with public. before it (quoted where quote_ident
 * quotes; letters folded as an unquoted name is); an unknown table or
 * column is NULL too (PostgreSQL: 42P01 / 42703). */
static bool m_serial_sequence(bctx *c, sbuf *b, int n) {
    if (n != 2) return false;
    syscat_rels rs;
    if (!syscat_rels_load(c, &rs)) { b->oom = true; return true; }
    name_lookup l = {0};
    for (int i = 0; i < rs.nseqs; i++) {
        const attu_sequence *q = rs.seqs[i];
        if (!q->owner_table || !q->owner_column) continue;
        /* keys: the table's spellings, a byte 1, the column (as written) */
        sbuf suffix = {0}, seq = {0}, v = {0};
        syscat_sb_printf(&suffix, "\001%s", q->owner_column);
        syscat_sb_puts(&seq, "public.");
        syscat_sb_ident(&seq, q->name);
        syscat_sb_quote(&v, seq.p ? seq.p : "");
        if (!suffix.p || !v.p || suffix.oom || seq.oom || v.oom) l.keys[0].oom = true;
        else lookup_relation(&l, "public", q->owner_table, suffix.p, v.p);
        free(suffix.p); free(seq.p); free(v.p);
    }
    syscat_rels_free(&rs);
    if (!l.n[0] && !l.n[1]) {
        syscat_sb_puts(b, "CASE WHEN $1 IS NULL OR $2 IS NULL THEN NULL::text ELSE NULL::text END");
        return true;
    }
    lookup_write(b, &l, "lower($1) || chr(1) || $2", "$1 || chr(1) || $2", "text");
    return true;
}

/* pg_database_size(name or oid): every table's pg_table_size */
/* every table's bytes: the database's, and pg_default's */
static int64_t all_table_bytes(bctx *c) {
    int64_t sum = 0;
    for (size_t i = 0; i < attu_catalog_count(c->cat); i++) sum += table_bytes(attu_catalog_at(c->cat, i));
    return sum;
}

static bool m_database_size(bctx *c, sbuf *b, int n) {
    if (n != 1) return false;
    /* this database, by its OID or name (pg_database's one row); NULL for
     * another OID, as PostgreSQL's (a name is checked where it is a
     * constant: unknown_size_name) */
    syscat_sb_printf(b, "CASE WHEN CAST($1 AS text) IN ('%d', ", OID_DATABASE);
    syscat_sb_quote(b, syscat_database(c));
    syscat_sb_printf(b, ") THEN %lld::bigint ELSE NULL::bigint END", (long long)all_table_bytes(c));
    return true;
}

/* pg_tablespace_size(oid or name): pg_default holds every table (the
 * bytes pg_database_size counts), pg_global none of them; NULL for
 * another OID (a name is checked where it is a constant:
 * unknown_size_name) */
static bool m_tablespace_size(bctx *c, sbuf *b, int n) {
    if (n != 1) return false;
    syscat_sb_printf(b, "CASE WHEN $1 IS NULL THEN NULL::bigint WHEN CAST($1 AS text) IN ('1663', 'pg_default') "
                        "THEN %lld::bigint WHEN CAST($1 AS text) IN ('1664', 'pg_global') THEN 0::bigint "
                        "ELSE NULL::bigint END", (long long)all_table_bytes(c));
    return true;
}

/* text::regclass of a value read at run time (SQLAlchemy's
 * pg_get_serial_sequence(...)::regclass): the OID of the relation it
 * names, as 'name'::regclass's of a literal; NULL for no such relation
 * (PostgreSQL: 42P01). */
static bool m_regclass_of_text(bctx *c, sbuf *b, int n) {
    if (n != 1) return false;
    syscat_rels rs;
    if (!syscat_rels_load(c, &rs)) { b->oom = true; return true; }
    name_lookup l = {0};
    char v[32];
    for (size_t i = 0; i < rs.n; i++) {
        snprintf(v, sizeof v, "%lld", (long long)rs.r[i].oid);
        lookup_relation(&l, "public", rs.r[i].name, "", v);
    }
    syscat_rels_free(&rs);
    int64_t oid;
    const char *name;
    for (size_t i = 0; (name = syscat_table_at(i, &oid)); i++) {
        snprintf(v, sizeof v, "%lld", (long long)oid);
        lookup_relation(&l, "pg_catalog", name, "", v);
    }
    lookup_write(b, &l, "lower($1)", "$1", "bigint");
    return true;
}

/* oid::regclass: the relation's name (quoted as needed; a catalog
 * table's by PostgreSQL's OID), else the number */
static bool m_regclass(bctx *c, sbuf *b, int n) {
    if (n != 1) return false;
    syscat_rels rs;
    if (!syscat_rels_load(c, &rs)) { b->oom = true; return true; }
    syscat_sb_puts(b, CASE_FIRST_ARM("text"));
    for (size_t i = 0; i < rs.n; i++) {
        sbuf id = {0};
        syscat_sb_ident(&id, rs.r[i].name);
        syscat_sb_printf(b, " WHEN $1 = %lld THEN ", (long long)rs.r[i].oid);
        syscat_sb_quote(b, id.p ? id.p : "");
        free(id.p);
    }
    syscat_rels_free(&rs);
    int64_t oid;
    const char *name;
    for (size_t i = 0; (name = syscat_table_at(i, &oid)); i++) {
        syscat_sb_printf(b, " WHEN $1 = %lld THEN ", (long long)oid);
        syscat_sb_quote(b, name);
    }
    syscat_sb_puts(b, " ELSE CAST($1 AS text) END");
    return true;
}

/* to_regclass(text) of a name the statement computes: the user
 * relation's OID whose name (folded to lower case unless quoted, bare or
 * after public.) it is, else NULL (a literal or parameter is looked up at
 * bind time instead: attu_bind_catalog_function) */
static bool m_to_regclass(bctx *c, sbuf *b, int n) {
    if (n != 1) return false;
    syscat_rels rs;
    if (!syscat_rels_load(c, &rs)) { b->oom = true; return true; }
    syscat_sb_puts(b, CASE_FIRST_ARM("bigint"));
    for (size_t i = 0; i < rs.n; i++) {
        sbuf id = {0}, pub = {0};
        syscat_sb_ident(&id, rs.r[i].name);
        syscat_sb_printf(&pub, "public.%s", id.p ? id.p : "");
        syscat_sb_puts(b, " WHEN $1 IN (");
        syscat_sb_quote(b, id.p ? id.p : "");
        syscat_sb_puts(b, ", ");
        syscat_sb_quote(b, pub.p ? pub.p : "");
        syscat_sb_puts(b, ") OR lower($1) IN (");
        syscat_sb_quote(b, id.p ? id.p : "");
        syscat_sb_puts(b, ", ");
        syscat_sb_quote(b, pub.p ? pub.p : "");
        syscat_sb_printf(b, ") THEN %lld::bigint", (long long)rs.r[i].oid);
        free(id.p);
        free(pub.p);
    }
    syscat_rels_free(&rs);
    syscat_sb_puts(b, " ELSE NULL::bigint END");
    return true;
}

static bool m_regtype(bctx *c, sbuf *b, int n) {
    if (n != 1) return false;
    syscat_sb_puts(b, "CASE");
    attu_enum_each(attu_catalog_comments(c->cat), enum_arm, b);
    for (size_t i = 0; i < syscat_n_pg_types; i++) {
        char arr[96];
        syscat_sb_printf(b, " WHEN $1 = %d THEN ", syscat_pg_types[i].oid);
        syscat_sb_quote(b, syscat_pg_types[i].format);
        snprintf(arr, sizeof arr, "%s[]", syscat_pg_types[i].format);
        syscat_sb_printf(b, " WHEN $1 = %d THEN ", syscat_pg_types[i].array);
        syscat_sb_quote(b, arr);
    }
    pseudo_type_arms(b);
    syscat_sb_puts(b, " ELSE CAST($1 AS text) END");
    return true;
}

/* oid::regproc and oid::regprocedure: the functions attu's catalogs name
 * by OID (the built-in languages' validators, which take an oid), "-" for
 * 0 (no function), else the argument as text (a name: 'now'::regproc is
 * now; a function's OID attu has no name for: the number). */
static void regproc_body(sbuf *b, bool with_args) {
    syscat_sb_puts(b, "CASE CAST($1 AS text) WHEN '0' THEN '-'");
    const syscat_language *l;
    for (size_t i = 0; (l = syscat_builtin_language(i)); i++)
        syscat_sb_printf(b, " WHEN '%d' THEN '%s%s'", l->validator, l->validator_name, with_args ? "(oid)" : "");
    syscat_sb_puts(b, " ELSE CAST($1 AS text) END");
}
static bool m_regproc(bctx *c, sbuf *b, int n) {
    (void)c;
    if (n != 1) return false;
    regproc_body(b, false);
    return true;
}
static bool m_regprocedure(bctx *c, sbuf *b, int n) {
    (void)c;
    if (n != 1) return false;
    regproc_body(b, true);
    return true;
}

static bool m_regnamespace(bctx *c, sbuf *b, int n) {
    (void)c;
    if (n != 1) return false;
    syscat_sb_printf(b, "CASE $1 WHEN %d THEN 'pg_catalog' WHEN %d THEN 'pg_toast' WHEN %d THEN 'public'"
                 " WHEN %d THEN 'information_schema' ELSE CAST($1 AS text) END",
              OID_PG_CATALOG, OID_PG_TOAST, OID_PUBLIC, OID_INFO_SCHEMA);
    return true;
}

/* the index's CREATE INDEX as a SQL string constant */
static void index_definition(sbuf *b, const rel_info *ri, bool qualified) {
    char *d = syscat_index_definition(ri, qualified);
    if (!d) b->oom = true;
    syscat_sb_quote(b, d ? d : "");
    free(d);
}

/* pg_get_indexdef(index oid): the CREATE INDEX of a constraint's index;
 * (index oid, column, pretty): column 0 the same (without the schema when
 * pretty), column k the k-th key column's name. NULL for another OID. */
static bool m_get_indexdef(bctx *c, sbuf *b, int n) {
    if (n != 1 && n != 3) return false;
    syscat_rels rs;
    if (!syscat_rels_load(c, &rs)) { b->oom = true; return true; }
    syscat_sb_puts(b, "CASE WHEN false THEN NULL::text");   /* (a CASE of no index still parses) */
    for (size_t i = 0; i < rs.n; i++) {
        const rel_info *ri = &rs.r[i];
        if (ri->kind != 'i') continue;
        if (n == 1) {
            syscat_sb_printf(b, " WHEN $1 = %lld THEN ", (long long)ri->oid);
            index_definition(b, ri, true);
            continue;
        }
        syscat_sb_printf(b, " WHEN $1 = %lld AND $2 = 0 THEN CASE WHEN $3 THEN ", (long long)ri->oid);
        index_definition(b, ri, false);
        syscat_sb_puts(b, " ELSE ");
        index_definition(b, ri, true);
        syscat_sb_puts(b, " END");
        for (int k = 0; k < syscat_index_ncols(ri); k++) {
            sbuf id = {0}, idp = {0};
            syscat_index_column(&id, ri, k, false);
            syscat_index_column(&idp, ri, k, true);
            syscat_sb_printf(b, " WHEN $1 = %lld AND $2 = %d THEN CASE WHEN $3 THEN ", (long long)ri->oid, k + 1);
            syscat_sb_quote(b, idp.p ? idp.p : "");
            syscat_sb_puts(b, " ELSE ");
            syscat_sb_quote(b, id.p ? id.p : "");
            syscat_sb_puts(b, " END");
            if (idp.oom) b->oom = true;
            free(idp.p);
            if (id.oom) b->oom = true;
            free(id.p);
        }
    }
    syscat_rels_free(&rs);
    syscat_sb_puts(b, " ELSE NULL::text END");
    return true;
}

/* The text of a domain's CHECK as PostgreSQL's deparser writes it: a
 * table CHECK's (syscat_check_definition), the name VALUE in capitals. */
static char *domain_check_text(const attu_domain_check *k, bool pretty) {
    attu_check ck;
    memset(&ck, 0, sizeof ck);
    ck.expr = k->expr;
    char *t = syscat_check_definition(&ck, pretty);
    if (!t) return NULL;
    char quote = 0;
    for (char *p = t; *p; p++) {
        if (quote) { if (*p == quote) quote = 0; continue; }
        if (*p == '\'' || *p == '"') { quote = *p; continue; }
        bool start = p == t || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '$');
        if (start && !strncasecmp(p, "value", 5) && !(isalnum((unsigned char)p[5]) || p[5] == '_' || p[5] == '$')) {
            memcpy(p, "VALUE", 5);
            p += 4;
        }
    }
    return t;
}

/* pg_get_constraintdef's text of a CHECK as an arm's result: with its
 * second argument (n == 2) the pretty form when $2, else the plain one. */
static void put_check_text(sbuf *b, int n, const char *plain, const char *pretty) {
    if (n == 2) {
        syscat_sb_puts(b, "CASE WHEN $2 THEN ");
        syscat_sb_quote(b, pretty ? pretty : "");
        syscat_sb_puts(b, " ELSE ");
        syscat_sb_quote(b, plain ? plain : "");
        syscat_sb_puts(b, " END");
    } else syscat_sb_quote(b, plain ? plain : "");
}

/* pg_get_constraintdef's arms of a domain's CHECKs */
static void domain_check_arms(void *ctx, const attu_domain_def *d) {
    sbuf *b = ((void **)ctx)[0];
    int n = (int)(intptr_t)((void **)ctx)[1];
    for (int k = 0; k < d->n; k++) {
        char *plain = domain_check_text(&d->checks[k], false), *pretty = domain_check_text(&d->checks[k], true);
        if (!plain || !pretty) b->oom = true;
        syscat_sb_printf(b, " WHEN $1 = %u THEN ", attu_domain_check_oid(d->id, k));
        put_check_text(b, n, plain, pretty);
        if (d->checks[k].not_valid) syscat_sb_puts(b, " || ' NOT VALID'");
        free(plain);
        free(pretty);
    }
}

/* pg_get_constraintdef(constraint oid [, pretty]): "PRIMARY KEY (id)",
 * "UNIQUE (a, b)" */
static bool m_get_constraintdef(bctx *c, sbuf *b, int n) {
    if (n != 1 && n != 2) return false;
    syscat_rels rs;
    if (!syscat_rels_load(c, &rs)) { b->oom = true; return true; }
    syscat_sb_puts(b, "CASE WHEN false THEN NULL::text");   /* (a CASE of no constraint still parses) */
    for (size_t i = 0; i < rs.n; i++) {
        const rel_info *ri = &rs.r[i];
        if (ri->kind != 'i' || ri->ix) continue;
        sbuf d = {0};
        syscat_sb_puts(&d, ri->u->primary ? "PRIMARY KEY (" : "UNIQUE (");
        for (int k = 0; k < ri->u->ncols; k++) {
            if (k) syscat_sb_puts(&d, ", ");
            syscat_sb_ident(&d, ri->t->defs[ri->u->cols[k]].name);
        }
        syscat_sb_puts(&d, ")");
        if (ri->u->deferrable) syscat_sb_puts(&d, " DEFERRABLE");
        if (ri->u->initially_deferred) syscat_sb_puts(&d, " INITIALLY DEFERRED");
        if (d.oom) b->oom = true;
        syscat_sb_printf(b, " WHEN $1 = %lld THEN ", (long long)syscat_constraint_oid(ri));
        syscat_sb_quote(b, d.p ? d.p : "");
        free(d.p);
    }
    /* FOREIGN KEYs: "FOREIGN KEY (a) REFERENCES p(id) ON DELETE CASCADE" */
    for (size_t i = 0; i < rs.n; i++) {
        const rel_info *ri = &rs.r[i];
        if (ri->kind != 'r') continue;
        int nf = 0;
        const attu_fkey *fs = attu_catalog_fkeys(c->cat, ri->t->name, &nf);
        for (int k = 0; k < nf; k++) {
            char *def = syscat_fkey_definition(c->cat, ri->t, &fs[k]);
            if (!def) b->oom = true;
            syscat_sb_printf(b, " WHEN $1 = %lld THEN ", (long long)syscat_fkey_oid(ri->t->name, fs[k].name));
            syscat_sb_quote(b, def ? def : "");
            free(def);
        }
    }
    /* CHECK constraints: "CHECK ((a > 0))", pretty "CHECK (a > 0)" */
    for (size_t i = 0; i < rs.n; i++) {
        const rel_info *ri = &rs.r[i];
        if (ri->kind != 'r') continue;
        int nc = 0;
        const attu_check *cs = attu_catalog_checks(c->cat, ri->t->name, &nc);
        for (int k = 0; k < nc; k++) {
            char *plain = syscat_check_definition(&cs[k], false), *pretty = syscat_check_definition(&cs[k], true);
            if (!plain || !pretty) b->oom = true;
            syscat_sb_printf(b, " WHEN $1 = %lld THEN ", (long long)syscat_check_oid(ri->t->name, cs[k].name));
            put_check_text(b, n, plain, pretty);
            free(plain);
            free(pretty);
        }
    }
    syscat_rels_free(&rs);
    void *ctx[2] = { b, (void *)(intptr_t)n };
    attu_domain_each(attu_catalog_comments(c->cat), domain_check_arms, ctx);
    syscat_sb_puts(b, " ELSE NULL::text END");
    return true;
}

/* pg_get_viewdef(view oid [, pretty]): the view's query
 * (syscat_view_definition) */
static bool m_get_viewdef(bctx *c, sbuf *b, int n) {
    if (n != 1 && n != 2) return false;
    syscat_rels rs;
    if (!syscat_rels_load(c, &rs)) { b->oom = true; return true; }
    syscat_sb_puts(b, CASE_FIRST_ARM("text"));
    for (size_t i = 0; i < rs.n; i++) {
        if (rs.r[i].kind != 'v' && rs.r[i].kind != 'm') continue;
        char *d = syscat_view_definition(rs.r[i].v);
        if (!d) b->oom = true;
        syscat_sb_printf(b, " WHEN $1 = %lld THEN ", (long long)rs.r[i].oid);
        syscat_sb_quote(b, d ? d : "");
        free(d);
    }
    syscat_rels_free(&rs);
    syscat_sb_puts(b, " ELSE NULL::text END");
    return true;
}

/* quote_ident(text): bare when lower case letters, digits and _ (not
 * first a digit), else double-quoted with its quotes doubled (PostgreSQL
 * also quotes a keyword: not done). A number is 42883, as there: ~ takes
 * no number. */
static bool m_quote_ident(bctx *c, sbuf *b, int n) {
    (void)c;
    if (n != 1) return false;
    syscat_sb_puts(b, "CASE WHEN $1 ~ '^[a-z_][a-z0-9_]*$' THEN $1 ELSE '\"' || replace($1, '\"', '\"\"') || '\"' END");
    return true;
}

/* pg_backend_pid(): the session's pid, BackendKeyData's (db/db_activity.c) */
static bool m_backend_pid(bctx *c, sbuf *b, int n) {
    if (n != 0) return false;
    syscat_sb_printf(b, "%u::integer", c->params ? c->params->backend_pid : 0u);
    return true;
}

/* pg_blocking_pids(pid): the pids of the sessions that pid's session
 * waits for (db/db_lock.c: the holders of the lock it asks, the waiters
 * queued ahead of it), as they are at bind time, as pg_locks' rows are;
 * an empty array for a session that waits for nothing or an unknown pid,
 * NULL for NULL. (The argument is an integer: a string literal is read
 * as one, 22P02 when it is not.) */
typedef struct blocking_ctx { sbuf *b; } blocking_ctx;
static void blocking_arm(void *rctx, uint32_t pid, const uint32_t *pids, int n) {
    blocking_ctx *c = rctx;
    syscat_sb_printf(c->b, " WHEN CAST($1 AS integer) = %u THEN '{", pid);
    for (int i = 0; i < n; i++) syscat_sb_printf(c->b, "%s%u", i ? "," : "", pids[i]);
    syscat_sb_puts(c->b, "}'::integer[]");
}
static bool m_blocking_pids(bctx *c, sbuf *b, int n) {
    if (n != 1) return false;
    const attu_bind_params *bp = c->params;
    syscat_sb_puts(b, "CASE WHEN CAST($1 AS integer) IS NULL THEN NULL::integer[]");
    blocking_ctx bc = { b };
    if (bp && bp->blocking) bp->blocking(bp->setting_ctx, blocking_arm, &bc);
    syscat_sb_puts(b, " ELSE '{}'::integer[] END");
    return true;
}

/* pg_listening_channels(): the channels the session LISTENs on (its
 * committed LISTENs, db/db_notify.c), a set of text */
static bool m_listening_channels(bctx *c, sbuf *b, int n) {
    if (n != 0) return false;
    const attu_bind_params *bp = c->params;
    const char *ch;
    syscat_sb_puts(b, "unnest(ARRAY[");
    int k = 0;
    for (; bp && bp->listening_at && (ch = bp->listening_at(bp->setting_ctx, k)); k++) {
        if (k) syscat_sb_puts(b, ", ");
        syscat_sb_quote(b, ch);
    }
    syscat_sb_puts(b, "]::text[])");
    return true;
}

const attu_ast_expr *syscat_listening_channels(bctx *c) {
    sbuf b = {0};
    syscat_sb_puts(&b, "SELECT ");
    m_listening_channels(c, &b, 0);
    if (b.oom) { free(b.p); attu_error_oom(c->err); return NULL; }
    return syscat_parse_item(c, b.p);
}

/* obj_description(oid [, catalog]) / col_description(oid, column): the
 * comments COMMENT ON gave (system_catalog_comment.c) */
static bool m_obj_description(bctx *c, sbuf *b, int n) {
    if (n != 1 && n != 2) return false;
    return syscat_description_body(c, b, n, false);
}

/* pg_get_expr(text, relation [, pretty]): the text attu keeps; pretty
 * drops the parentheses around the whole of an expression that has them
 * (a generated column's "(a * 2)", which psql's \d shows as
 * "generated always as (a * 2) stored"), as PostgreSQL's pretty form
 * leaves the top level bare; a negative constant's "(-5)" stays. */
static bool m_get_expr(bctx *c, sbuf *b, int n) {
    (void)c;
    if (n == 2) { syscat_sb_puts(b, "CAST($1 AS text)"); return true; }
    if (n != 3) return false;
    syscat_sb_puts(b, "CASE WHEN $3 IS TRUE AND left(CAST($1 AS text), 1) = '(' AND right(CAST($1 AS text), 1) = ')'"
                      " AND substr(CAST($1 AS text), 2, 1) <> '-'"
                      " THEN substr(CAST($1 AS text), 2, length(CAST($1 AS text)) - 2) ELSE CAST($1 AS text) END");
    return true;
}

static bool m_col_description(bctx *c, sbuf *b, int n) {
    if (n != 2) return false;
    return syscat_description_body(c, b, n, true);
}

/* pg_get_function_result / _arguments / _identity_arguments / _sqlbody: a CASE over
 * the SQL functions' OIDs (engine/sql_function.h), each arm the text
 * PostgreSQL's format_type and the parameters' names (and DEFAULTs) make;
 * NULL for any other OID (attu's built-in functions are no catalog
 * rows). */
typedef struct fn_arms { sbuf *b; char what; } fn_arms;

/* A SQL-standard body as pg_get_function_sqlbody gives it (as written:
 * PostgreSQL deparses it) */
static void sql_body_text(attu_strbuf *t, const attu_sql_function *f) {
    if (f->sql_body == 2) attu_strbuf_printf(t, "BEGIN ATOMIC\n %s;\nEND", f->body);
    else attu_strbuf_printf(t, "RETURN%s", f->body + 6);
}

static const char *function_type_name(attu_type t, char *buf, size_t n) {
    return t.id == ATTU_TYPE_DECIMAL ? "numeric" : attu_type_name(t, buf, n);
}

/* The parameter list as pg_get_function_arguments (defaults: true) or
 * _identity_arguments writes it. */
static void function_parameters(attu_strbuf *t, const attu_sql_function *f, bool defaults) {
    char buf[96];
    for (int i = 0; i < f->nargs; i++) {
        if (i) attu_strbuf_printf(t, ", ");
        if (f->variadic && i == f->nargs - 1) attu_strbuf_printf(t, "VARIADIC ");
        if (f->arg_names[i]) attu_strbuf_printf(t, "%s ", f->arg_names[i]);
        attu_strbuf_printf(t, "%s", function_type_name(f->arg_types[i], buf, sizeof buf));
        if (defaults && f->arg_defaults[i]) attu_strbuf_printf(t, " DEFAULT %s", f->arg_defaults[i]);
    }
}

/* pg_get_function_result's text */
static void function_result(attu_strbuf *t, const attu_sql_function *f) {
    char buf[96];
    if (f->nout) {
        attu_strbuf_printf(t, "TABLE(");
        for (int i = 0; i < f->nout; i++)
            attu_strbuf_printf(t, "%s%s %s", i ? ", " : "", f->out_names[i],
                               function_type_name(f->out_types[i], buf, sizeof buf));
        attu_strbuf_printf(t, ")");
    } else {
        attu_strbuf_printf(t, "%s%s", f->retset ? "SETOF " : "", function_type_name(f->ret, buf, sizeof buf));
    }
}

/* pg_get_functiondef: the CREATE OR REPLACE FUNCTION that makes f, laid
 * out as PostgreSQL 15's ruleutils writes it (the header, RETURNS and
 * LANGUAGE lines, the options that differ from the defaults on one line,
 * then the body dollar-quoted by $function$, with x's added until the
 * body does not contain the quote; a SQL-standard body as written), each
 * line ending in a newline. psql's \sf and \ef show it. */
static void function_definition(attu_strbuf *t, const attu_sql_function *f) {
    sbuf id = {0};
    syscat_sb_ident(&id, f->name);
    attu_strbuf_printf(t, "CREATE OR REPLACE FUNCTION public.%s(", id.p ? id.p : "");
    if (!id.p) t->oom = true;
    free(id.p);
    function_parameters(t, f, true);
    attu_strbuf_printf(t, ")\n RETURNS ");
    function_result(t, f);
    attu_strbuf_printf(t, "\n LANGUAGE sql\n");
    const size_t before = t->n;
    if (f->volatility == 'i') attu_strbuf_printf(t, " IMMUTABLE");
    else if (f->volatility == 's') attu_strbuf_printf(t, " STABLE");
    if (f->parallel == 's') attu_strbuf_printf(t, " PARALLEL SAFE");
    else if (f->parallel == 'r') attu_strbuf_printf(t, " PARALLEL RESTRICTED");
    if (f->strict) attu_strbuf_printf(t, " STRICT");
    if (f->leakproof) attu_strbuf_printf(t, " LEAKPROOF");
    if (t->n != before) attu_strbuf_printf(t, "\n");
    if (f->sql_body) {
        sql_body_text(t, f);
    } else {
        char quote[64] = "$function";
        size_t q = strlen(quote);
        for (;;) {
            quote[q] = '$';
            quote[q + 1] = 0;
            if (!strstr(f->body, quote) || q + 2 >= sizeof quote) break;
            quote[q++] = 'x';
        }
        attu_strbuf_printf(t, "AS %s%s%s", quote, f->body, quote);
    }
    attu_strbuf_printf(t, "\n");
}

static void function_arm(void *ctx, const attu_sql_function *f) {
    fn_arms *a = ctx;
    attu_strbuf t = { 0 };
    if (a->what == 's') {
        /* pg_get_function_sqlbody: a RETURN body's text (its "SELECT"
         * read back as RETURN); NULL for a body given AS '...' */
        if (!f->sql_body) return;
        sql_body_text(&t, f);
    } else if (a->what == 'd') {
        function_definition(&t, f);
    } else if (a->what == 'r') {
        function_result(&t, f);
    } else {
        function_parameters(&t, f, a->what == 'a');
    }
    syscat_sb_printf(a->b, " WHEN $1 = %u THEN ", attu_function_oid(f->id));
    syscat_sb_quote(a->b, t.p ? t.p : "");
    if (t.oom) a->b->oom = true;
    free(t.p);
}

static bool function_text(bctx *c, sbuf *b, int n, char what) {
    if (n != 1) return false;
    fn_arms a = { b, what };
    syscat_sb_puts(b, "CASE WHEN $1 IS NULL THEN NULL::text");
    attu_sql_function_each(attu_catalog_comments(c->cat), function_arm, &a);
    syscat_sb_puts(b, " ELSE NULL::text END");
    return true;
}
static bool m_function_result(bctx *c, sbuf *b, int n) { return function_text(c, b, n, 'r'); }
static bool m_function_arguments(bctx *c, sbuf *b, int n) { return function_text(c, b, n, 'a'); }
static bool m_function_identity(bctx *c, sbuf *b, int n) { return function_text(c, b, n, 'i'); }
static bool m_function_sqlbody(bctx *c, sbuf *b, int n) { return function_text(c, b, n, 's'); }
static bool m_functiondef(bctx *c, sbuf *b, int n) { return function_text(c, b, n, 'd'); }

/* A catalog function: its body built by `body`, or (body NULL) the fixed
 * SQL text `text` for nmin..nmax arguments. */
typedef struct catalog_fn {
    const char *name;
    macro_fn    body;
    int         nmin, nmax;
    const char *text;
} catalog_fn;

static bool reg_name_arg(bctx *c, const attu_ast_expr *arg, const char **name);

/* Whether e is 'name'::regproc or 'name(types)'::regprocedure (a string
 * constant or a parameter holding one): *name the text (NULL for a NULL
 * parameter), *procedure which of the two. */
static bool regproc_name_of(bctx *c, const attu_ast_expr *e, const char **name, bool *procedure) {
    if (e->kind != ATTU_EXPR_CAST || !e->u.cast.type.name) return false;
    *procedure = !strcmp(e->u.cast.type.name, "regprocedure");
    return (*procedure || !strcmp(e->u.cast.type.name, "regproc")) && reg_name_arg(c, e->u.cast.arg, name);
}
static bool regproc_name_cast(bctx *c, const attu_ast_expr *e) {
    const char *name;
    bool procedure;
    return regproc_name_of(c, e, &name, &procedure);
}

/* e read as its ::oid (a copy of the cast node wrapping it, in *as_oid) */
static const attu_ast_expr *regproc_as_oid(const attu_ast_expr *e, attu_ast_expr *as_oid) {
    *as_oid = *e;
    as_oid->u.cast.arg = (attu_ast_expr *)e;
    as_oid->u.cast.type = (attu_ast_typename){ .name = (char *)"oid", .precision = -1, .scale = -1,
                                              .position = e->position };
    return as_oid;
}

bool attu_bind_regproc_operands(bctx *c, const scope *sc, const attu_ast_expr *e, attu_bexpr **l, attu_bexpr **r) {
    for (int k = 0; k < 2; k++) {
        const attu_bexpr *known = k ? *r : *l;   /* the integer side */
        const attu_ast_expr *cast = k ? e->u.binary.left : e->u.binary.right;
        if (!attu_type_is_int(known->type.id) || attu_type_is_array(known->type) || !regproc_name_cast(c, cast))
            continue;
        attu_ast_expr as_oid;
        attu_bexpr *x = bind_expr(c, sc, regproc_as_oid(cast, &as_oid));
        if (!x) return false;
        *(k ? l : r) = x;
        break;
    }
    return true;
}

/* The functions whose first argument is a function's OID in PostgreSQL's
 * signature, or any object's (obj_description): regproc of a name there
 * is that OID. */
static bool takes_function_oid(const char *name) {
    return !strcmp(name, "pg_get_functiondef") || !strcmp(name, "obj_description") || !strcmp(name, "pg_get_function_arguments") ||
           !strcmp(name, "pg_get_function_identity_arguments") || !strcmp(name, "pg_get_function_result") ||
           !strcmp(name, "pg_get_function_sqlbody");
}

/* The functions whose arguments are all integers in PostgreSQL's
 * signature: another type is the usual 42883, as there. */
static bool int4_signature(const char *name) {
    return !strcmp(name, "pg_blocking_pids");
}

#define VISIBLE     NULL, 1, 1, "CASE WHEN $1 IS NULL THEN NULL::boolean ELSE true END"
#define NULL_TEXT_1 NULL, 1, 1, "NULL::text"
#define NULL_TEXT_2 NULL, 2, 2, "NULL::text"
#define TRUE_1_3    NULL, 1, 3, "true"
#define BODY(f)     f, 0, 0, NULL

static const catalog_fn catalog_fns[] = {
    { "pg_get_userbyid", BODY(m_userbyid) },
    { "pg_table_is_visible", VISIBLE },
    { "pg_type_is_visible", VISIBLE },
    { "pg_get_expr", BODY(m_get_expr) },
    { "pg_encoding_to_char", NULL, 1, 1, "CASE $1 WHEN 6 THEN 'UTF8' WHEN 0 THEN 'SQL_ASCII' WHEN 8 THEN 'LATIN1' ELSE '' END" },
    /* (PostgreSQL's names compare without case and punctuation: utf-8) */
    { "pg_char_to_encoding", NULL, 1, 1,
      "CASE WHEN $1 IS NULL THEN NULL::integer ELSE CASE translate(upper($1), '-_ ', '') WHEN 'UTF8' THEN 6 "
      "WHEN 'UNICODE' THEN 6 WHEN 'SQLASCII' THEN 0 WHEN 'LATIN1' THEN 8 WHEN 'ISO88591' THEN 8 ELSE -1 END END" },
    { "getdatabaseencoding", NULL, 0, 0, "'UTF8'::text" },
    { "obj_description", BODY(m_obj_description) },
    { "col_description", BODY(m_col_description) },
    { "shobj_description", NULL_TEXT_2 },
    { "pg_get_statisticsobjdef_columns", NULL_TEXT_1 },
    { "pg_relation_is_publishable", NULL, 1, 1, "CASE WHEN $1 IS NULL THEN NULL::boolean ELSE true END" },
    { "has_table_privilege", TRUE_1_3 },
    { "has_schema_privilege", TRUE_1_3 },
    { "has_database_privilege", TRUE_1_3 },
    { "has_column_privilege", TRUE_1_3 },
    { "current_schema", NULL, 0, 0, "'public'::text" },
    { "current_schemas", NULL, 1, 1, "CASE WHEN $1 THEN ARRAY['pg_catalog', 'public'] ELSE ARRAY['public'] END" },
    { "current_database", BODY(m_current_database) },
    { "current_user", BODY(m_current_user) },
    { "session_user", BODY(m_session_user) },
    { "current_role", BODY(m_current_user) },   /* these three only as keywords (the grammar's func_expr_common) */
    { "user", BODY(m_current_user) },
    { "current_catalog", BODY(m_current_database) },
    { "version", NULL, 0, 0, "'PostgreSQL 15.0 (attu 0.1.0) on x86_64-pc-linux-gnu'::text" },
    { "format_type", BODY(m_format_type) },
    { "pg_table_size", BODY(m_table_size) },
    { "pg_relation_size", BODY(m_table_size) },
    { "pg_total_relation_size", BODY(m_table_size) },
    { "to_regclass", BODY(m_to_regclass) },
    { "pg_client_encoding", NULL, 0, 0, "'UTF8'::text" },
    { "pg_database_size", BODY(m_database_size) },
    { "pg_tablespace_size", BODY(m_tablespace_size) },
    { "pg_tablespace_location", NULL, 1, 1, "CASE WHEN $1 IS NULL THEN NULL::text ELSE ''::text END" },
    { "pg_function_is_visible", VISIBLE },
    { "pg_statistics_obj_is_visible", VISIBLE },
    { "pg_collation_is_visible", VISIBLE },
    { "pg_operator_is_visible", VISIBLE },
    { "pg_opclass_is_visible", VISIBLE },
    { "pg_opfamily_is_visible", VISIBLE },
    { "pg_conversion_is_visible", VISIBLE },
    { "pg_ts_config_is_visible", VISIBLE },
    { "pg_ts_dict_is_visible", VISIBLE },
    { "pg_ts_parser_is_visible", VISIBLE },
    { "pg_ts_template_is_visible", VISIBLE },
    { "pg_get_function_result", BODY(m_function_result) },
    { "pg_get_function_arguments", BODY(m_function_arguments) },
    { "pg_get_function_identity_arguments", BODY(m_function_identity) },
    { "pg_get_function_sqlbody", BODY(m_function_sqlbody) },
    { "pg_get_functiondef", BODY(m_functiondef) },
    { "pg_get_indexdef", BODY(m_get_indexdef) },
    { "pg_get_constraintdef", BODY(m_get_constraintdef) },
    { "pg_get_viewdef", BODY(m_get_viewdef) },
    { "quote_ident", BODY(m_quote_ident) },
    /* quote_literal / quote_nullable of any value (as its text): quotes
     * doubled, and a backslash doubled with an E prefix; NULL is NULL /
     * the word NULL */
    { "quote_literal", NULL, 1, 1,
      "CASE WHEN $1 IS NULL THEN NULL::text WHEN strpos(CAST($1 AS text), E'\\\\') > 0 "
      "THEN 'E''' || replace(replace(CAST($1 AS text), E'\\\\', E'\\\\\\\\'), '''', '''''') || '''' "
      "ELSE '''' || replace(CAST($1 AS text), '''', '''''') || '''' END" },
    { "quote_nullable", NULL, 1, 1,
      "CASE WHEN $1 IS NULL THEN 'NULL'::text WHEN strpos(CAST($1 AS text), E'\\\\') > 0 "
      "THEN 'E''' || replace(replace(CAST($1 AS text), E'\\\\', E'\\\\\\\\'), '''', '''''') || '''' "
      "ELSE '''' || replace(CAST($1 AS text), '''', '''''') || '''' END" },
    { "pg_backend_pid", BODY(m_backend_pid) },
    { "pg_blocking_pids", BODY(m_blocking_pids) },
    { "pg_listening_channels", BODY(m_listening_channels) },
    { "pg_get_ruledef", NULL, 1, 2, "NULL::text" },   /* attu has no rules (pg_rewrite is empty) */
    { "pg_get_triggerdef", NULL, 1, 2, "NULL::text" },   /* (pg_trigger is empty) */
    /* no table is a partition: no ancestors (psql's \d asks, for "Referenced by:") */
    { "pg_partition_ancestors", NULL, 1, 1, "unnest(CASE WHEN $1 IS NULL THEN '{}'::bigint[] ELSE '{}'::bigint[] END)" },
};

/* The macro being bound: its arguments, bound in the scope and text of
 * the call where $k stands. */
struct syscat_macro {
    const attu_ast_expr *const *args;
    int                         nargs;
    const scope                *sc;
    const char                 *sql;
    struct syscat_macro        *up;
    bool                        arg_failed;   /* an argument's error (its own position) */
    unsigned                    used;         /* bit k: $k+1 was bound */
};

/* Binds body (with $1..$n standing for args) as an expression. The $k
 * become quoted names holding \001 (no name a user writes does, and they
 * are not parameters, whose binding the statement's own $n own). */
static attu_bexpr *bind_macro(bctx *c, const scope *sc, const sbuf *body, const attu_ast_expr *const *args, int n,
                              int pos, bool *body_failed) {
    *body_failed = false;
    if (body->oom) { attu_error_oom(c->err); return NULL; }
    sbuf q = {0};
    syscat_sb_puts(&q, "SELECT ");
    /* (a $k inside a string constant is text: a SQL function's body
     * quoted by pg_get_functiondef) */
    bool in_string = false, escapes = false;
    const char *start = body->p ? body->p : "";
    for (const char *p = start; *p; p++) {
        if (in_string) {
            if (escapes && *p == '\\' && p[1]) { syscat_sb_add(&q, p, 2); p++; continue; }
            if (*p == '\'') {
                if (p[1] == '\'') { syscat_sb_add(&q, p, 2); p++; continue; }
                in_string = false;
            }
            syscat_sb_add(&q, p, 1);
        } else if (*p == '\'') {
            in_string = true;
            escapes = p > start && (p[-1] == 'E' || p[-1] == 'e') &&
                      (p - 1 == start || !(isalnum((unsigned char)p[-2]) || p[-2] == '_'));
            syscat_sb_add(&q, p, 1);
        } else if (*p == '$' && p[1] >= '1' && p[1] <= '9') {
            syscat_sb_printf(&q, "\"\001%c\"", p[1]);
            p++;
        } else syscat_sb_add(&q, p, 1);
    }
    if (q.oom) { free(q.p); attu_error_oom(c->err); return NULL; }
    const char *text;
    const attu_parse_result *pr = syscat_parse_kept(c, q.p, &text);
    if (!pr) return NULL;
    const attu_ast_query *mq = pr->stmts[0].stmt->u.select.query;
    struct syscat_macro m = { args, n, sc, c->sql, c->macro, false, 0 };
    const char *save_sql = c->sql;
    c->macro = &m;
    c->sql = text;
    attu_bexpr *r = bind_expr(c, sc, mq->u.select.items[0].expr);
    c->macro = m.up;
    c->sql = save_sql;
    /* the body's own error (an argument of a type it cannot take) stands
     * at the call, not somewhere in the body's text */
    if (!r && !m.arg_failed && c->err->set) {
        c->err->position = pos;
        *body_failed = true;
    }
    /* an argument the body does not read (obj_description's) is still
     * checked, as PostgreSQL binds every argument (42703, ...) */
    for (int k = 0; r && k < n; k++)
        if (!(m.used & (1u << k)) && !bind_expr(c, sc, args[k])) return NULL;
    return r;
}

attu_bexpr *attu_syscat_macro_arg(bctx *c, const attu_ast_expr *e, bool *handled) {
    *handled = false;
    if (!c->macro || e->kind != ATTU_EXPR_COLUMN || e->u.column.qualifier || e->u.column.name[0] != '\001') return NULL;
    *handled = true;
    struct syscat_macro *m = c->macro;
    int k = e->u.column.name[1] - '1';
    if (k < 0 || k >= m->nargs) {
        attu_error_set(c->err, "XX000", 0, "internal error in a system catalog function");
        return NULL;
    }
    /* the argument in the call's own context (a macro within an argument
     * binds with the one around it) */
    const char *text = c->sql;
    c->macro = m->up;
    c->sql = m->sql;
    attu_bexpr *r = bind_expr(c, m->sc, m->args[k]);
    c->macro = m;
    c->sql = text;
    if (!r) m->arg_failed = true;
    m->used |= 1u << k;
    return r;
}

static attu_bexpr *regclass_of_name(bctx *c, const char *s, int pos);
static bool reg_name_arg(bctx *c, const attu_ast_expr *arg, const char **name);

/* Whether arg binds to a text value (a relation's name read at run time,
 * where an OID would be a number); an arg that does not bind is not
 * (its error comes where the cast's body binds it). */
static bool binds_to_text(bctx *c, const scope *sc, const attu_ast_expr *arg) {
    attu_error scratch, *save = c->err;
    attu_error_clear(&scratch);
    c->err = &scratch;
    const attu_bexpr *x = bind_expr(c, sc, arg);
    c->err = save;
    return x && x->type.id == ATTU_TYPE_TEXT && !attu_type_is_array(x->type);
}

/* 'name'::regtype's OID: a pseudo-type's (syscat_pseudo_type_oid), else
 * that of the type attu_type_from_name reads, a pg_catalog. schema before
 * it dropped (PostgreSQL's built-in types live there); an unknown name's
 * 42704 names the text as written. */
static attu_bexpr *regtype_of_name(bctx *c, const char *name, int pos) {
    const attu_type i8 = attu_type_make(ATTU_TYPE_INT64);
    const int pseudo = syscat_pseudo_type_oid(name);
    if (pseudo) return mk_const_int(c, i8, pseudo);
    const char *p = name;
    while (*p == ' ') p++;
    attu_type t;
    if (!strncasecmp(p, "pg_catalog.", 11)) {
        /* pg_type's names there (int4, float8[]), not the grammar's
         * (integer, double precision) */
        char low[64];
        size_t n = 0;
        for (const char *q = p + 11; *q && *q != '[' && *q != ' ' && n + 1 < sizeof low; q++)
            low[n++] = (char)tolower((unsigned char)*q);
        low[n] = 0;
        bool listed = false;
        for (size_t i = 0; i < syscat_n_pg_types && !listed; i++) listed = !strcmp(syscat_pg_types[i].typname, low);
        attu_error scratch;
        attu_error_clear(&scratch);
        if (listed && !attu_type_from_name(p + 11, -1, -1, &t, &scratch)) return mk_const_int(c, i8, attu_type_pg_oid(t));
    }
    if (attu_type_from_name(name, -1, -1, &t, c->err)) { c->err->position = pos; return NULL; }
    return mk_const_int(c, i8, attu_type_pg_oid(t));
}

/* to_regclass('name') of a literal or a parameter: 'name'::regclass's
 * OID, or NULL where no relation has the name (PostgreSQL's 42P01 of the
 * cast becomes NULL; an unknown schema is no relation either) */
static attu_bexpr *to_regclass_of_name(bctx *c, const char *name) {
    if (!name) return mk_const_null(c, attu_type_make(ATTU_TYPE_INT64));
    attu_error scratch, *save = c->err;
    attu_error_clear(&scratch);
    c->err = &scratch;
    attu_bexpr *r = regclass_of_name(c, name, 0);
    c->err = save;
    if (r) return r;
    if (!strcmp(scratch.sqlstate, ATTU_SQLSTATE_UNDEFINED_TABLE)) return mk_const_null(c, attu_type_make(ATTU_TYPE_INT64));
    *c->err = scratch;
    return NULL;
}

/* pg_database_size('name') and pg_tablespace_size('name') of a string
 * constant: false, with PostgreSQL's error (3D000 / 42704, no position:
 * the function's, at run time there), for a database or tablespace attu
 * does not have (this database; pg_default and pg_global). */
static bool unknown_size_name(bctx *c, const char *fn, const attu_ast_expr *arg) {
    const bool database = !strcmp(fn, "pg_database_size");
    if ((!database && strcmp(fn, "pg_tablespace_size")) || arg->kind != ATTU_EXPR_LITERAL ||
        arg->u.literal.kind != ATTU_LIT_STRING)
        return true;
    const char *name = arg->u.literal.text;
    if (database ? !strcmp(name, syscat_database(c)) : !strcmp(name, "pg_default") || !strcmp(name, "pg_global"))
        return true;
    if (database) attu_error_set(c->err, "3D000", 0, "database \"%s\" does not exist", name);
    else attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "tablespace \"%s\" does not exist", name);
    return false;
}

attu_bexpr *attu_bind_serial_sequence_of_values(bctx *c, const scope *sc, const attu_ast_expr *e) {
    sbuf body = {0};
    m_serial_sequence(c, &body, 2);
    bool body_failed;
    attu_bexpr *r = bind_macro(c, sc, &body, (const attu_ast_expr *const *)e->u.func.args.items, 2, e->position,
                               &body_failed);
    free(body.p);
    return r;
}

attu_bexpr *attu_bind_catalog_function(bctx *c, const scope *sc, const attu_ast_expr *e, bool *handled) {
    *handled = false;
    if (e->u.func.schema && strcmp(e->u.func.schema, "pg_catalog")) return NULL;
    if (e->u.func.star || e->u.func.distinct || e->u.func.order_by.n || e->u.func.filter || e->u.func.over ||
        e->u.func.within_group)
        return NULL;
    const catalog_fn *fn = NULL;
    for (size_t i = 0; i < sizeof catalog_fns / sizeof catalog_fns[0]; i++)
        if (!strcmp(catalog_fns[i].name, e->u.func.name)) fn = &catalog_fns[i];
    if (!fn) return NULL;
    int n = e->u.func.args.n;
    for (int i = 0; i < n; i++) if (e->u.func.args.items[i]->arg_name) return NULL;
    const char *reg_name;
    if (n == 1 && !unknown_size_name(c, fn->name, e->u.func.args.items[0])) {
        *handled = true;
        return NULL;
    }
    if (!strcmp(fn->name, "to_regclass") && n == 1 && reg_name_arg(c, e->u.func.args.items[0], &reg_name)) {
        *handled = true;
        return to_regclass_of_name(c, reg_name);
    }
    if (int4_signature(fn->name)) {
        /* (bound here for their types only: the body binds them again
         * where $k stands; a literal that is no integer fails here, at
         * its own position) */
        attu_bexpr *args[8] = { 0 };
        bool fits = n <= 8;
        for (int i = 0; i < n && i < 8; i++) {
            const attu_ast_expr *a = e->u.func.args.items[i];
            if (!(args[i] = bind_expr(c, sc, a))) { *handled = true; return NULL; }
            attu_type_id t = args[i]->type.id;
            fits &= !attu_type_is_array(args[i]->type) &&
                    (t == ATTU_TYPE_UNKNOWN || t == ATTU_TYPE_INT16 || t == ATTU_TYPE_INT32);
        }
        if (!fits) { *handled = true; return attu_no_function(c, e, args, n < 8 ? n : 8); }
        for (int i = 0; i < n; i++)
            if (args[i]->type.id == ATTU_TYPE_UNKNOWN &&
                !coerce(c, args[i], attu_type_make(ATTU_TYPE_INT32), false, e->u.func.args.items[i]->position)) {
                *handled = true;
                return NULL;
            }
    }
    sbuf body = {0};
    bool fits = fn->body ? fn->body(c, &body, n) : n >= fn->nmin && n <= fn->nmax;
    if (fits && !fn->body) syscat_sb_puts(&body, fn->text);
    if (fits && !strcmp(fn->name, "obj_description") && !regproc_name_cast(c, e->u.func.args.items[0])) {
        /* a function named by a regproc column attu keeps as text
         * (pg_operator's oprcode, which psql's \do+ describes): those
         * are built-in functions, which have no description here */
        attu_bexpr *first = bind_expr(c, sc, e->u.func.args.items[0]);
        if (!first) { free(body.p); *handled = true; return NULL; }
        if (first->type.id == ATTU_TYPE_TEXT && !attu_type_is_array(first->type)) {
            body.n = 0;
            if (body.p) body.p[0] = 0;
            syscat_sb_puts(&body, "CASE WHEN $1 IS NULL THEN NULL::text ELSE NULL::text END");
        }
    }
    if (!fits) { free(body.p); return NULL; }   /* the usual "function does not exist" */
    *handled = true;
    /* A function's OID as 'name'::regproc or 'name(types)'::regprocedure
     * (PostgreSQL's regproc is an oid; attu's cast alone gives the name):
     * the argument is read as its ::oid. */
    const attu_ast_expr *items[8];
    attu_ast_expr first_as_oid;
    const attu_ast_expr *const *call_args = (const attu_ast_expr *const *)e->u.func.args.items;
    if (n >= 1 && n <= 8 && takes_function_oid(fn->name) && regproc_name_cast(c, call_args[0])) {
        for (int i = 0; i < n; i++) items[i] = call_args[i];
        items[0] = regproc_as_oid(items[0], &first_as_oid);
        call_args = items;
    }
    bool body_failed;
    attu_bexpr *r = bind_macro(c, sc, &body, call_args, n, e->position, &body_failed);
    free(body.p);
    if (!r && body_failed && !strcmp(c->err->sqlstate, ATTU_SQLSTATE_UNDEFINED_FUNCTION) && n <= 8) {
        /* an argument of a type the body cannot take (pg_char_to_encoding(1)
         * fails on upper(integer)): PostgreSQL's error names the function
         * called, not what it is made of */
        attu_bexpr *args[8] = { 0 };
        attu_error_clear(c->err);
        for (int i = 0; i < n; i++)
            if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
        return attu_no_function(c, e, args, n);
    }
    return r;
}

/* 'name'::regclass: the OID of the user table of that name (optionally
 * public.), 42P01 when none; an OID written as a string is that OID. */
static attu_bexpr *regclass_of_name(bctx *c, const char *s, int pos) {
    char *end;
    long long v = strtoll(s, &end, 10);
    if (*s && !*end) return mk_const_int(c, attu_type_make(ATTU_TYPE_INT64), v);
    const char *name = s;
    if (!strncmp(name, "pg_catalog.", 11) || syscat_is_relation(NULL, name)) {
        /* a system relation: PostgreSQL's OID for its catalog tables */
        const char *rn = !strncmp(name, "pg_catalog.", 11) ? name + 11 : name;
        if (syscat_is_relation("pg_catalog", rn) && !attu_catalog_relation_exists(c->cat, rn)) {
            const int64_t oid = syscat_table_oid(rn);
            return mk_const_int(c, attu_type_make(ATTU_TYPE_INT64), oid ? oid : syscat_name_hash_oid(rn) % FIRST_USER_OID);
        }
    }
    if (!strncmp(name, "public.", 7)) name += 7;
    char folded[ATTU_NAME_MAX + 1];
    size_t n = 0;
    if (*name == '"') {   /* "Mixed Case" keeps its case */
        for (const char *p = name + 1; *p && n < ATTU_NAME_MAX; p++) {
            if (*p == '"') { if (p[1] == '"') p++; else break; }
            folded[n++] = *p;
        }
    } else {
        for (const char *p = name; *p && n < ATTU_NAME_MAX; p++)
            folded[n++] = (*p >= 'A' && *p <= 'Z') ? (char)(*p - 'A' + 'a') : *p;
    }
    folded[n] = 0;
    syscat_rels rs;
    if (!syscat_rels_load(c, &rs)) { attu_error_oom(c->err); return NULL; }
    const rel_info *ri = syscat_rel_find(&rs, folded);
    if (ri) {
        int64_t oid = ri->oid;
        syscat_rels_free(&rs);
        return mk_const_int(c, attu_type_make(ATTU_TYPE_INT64), oid);
    }
    syscat_rels_free(&rs);
    attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_TABLE, pos, "relation \"%s\" does not exist", s);
    return NULL;
}

/* A function name as regproc input reads it: an optional schema (public,
 * or pg_catalog: *builtin_only), then the name, folded to lower case
 * unless double-quoted; into out (ATTU_NAME_MAX + 1 bytes). [s, end) is
 * the text (all of it: str, in the errors). False with 3F000 for another
 * schema, with 42883 for an empty or malformed name. */
static bool regproc_name(bctx *c, const char *str, const char *end, char *out, bool *builtin_only, int pos) {
    const char *s = str;
    while (s < end && isspace((unsigned char)*s)) s++;
    while (end > s && isspace((unsigned char)end[-1])) end--;
    *builtin_only = false;
    const char *dot = s < end && *s != '"' ? memchr(s, '.', (size_t)(end - s)) : NULL;
    if (dot && dot - s == 6 && !strncasecmp(s, "public", 6)) s = dot + 1;
    else if (dot && dot - s == 10 && !strncasecmp(s, "pg_catalog", 10)) { s = dot + 1; *builtin_only = true; }
    else if (dot) {
        size_t n = 0;
        for (const char *p = s; p < dot && n < ATTU_NAME_MAX; p++)
            out[n++] = (*p >= 'A' && *p <= 'Z') ? (char)(*p - 'A' + 'a') : *p;
        out[n] = 0;
        attu_error_set(c->err, "3F000", pos, "schema \"%s\" does not exist", out);
        return false;
    }
    size_t n = 0;
    if (s < end && *s == '"') {
        const char *p = s + 1;
        for (; p < end && n < ATTU_NAME_MAX; p++) {
            if (*p == '"') { if (p + 1 < end && p[1] == '"') p++; else break; }
            out[n++] = *p;
        }
        if (p >= end || p + 1 != end) n = 0;   /* no closing quote, or text after it */
    } else {
        for (const char *p = s; p < end && n < ATTU_NAME_MAX; p++) {
            if (*p == '.' || *p == '"' || isspace((unsigned char)*p)) { n = 0; break; }
            out[n++] = (*p >= 'A' && *p <= 'Z') ? (char)(*p - 'A' + 'a') : *p;
        }
    }
    out[n] = 0;
    if (!n) attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "function \"%s\" does not exist", str);
    return n > 0;
}

/* 'name'::regproc and 'name(types)'::regprocedure at bind time: the SQL
 * function's OID (oid: the cast's ::oid follows) or its name as regproc /
 * regprocedure output writes it. Any other name is the text as given
 * (attu's built-in functions have no OIDs, and the binder's list of them,
 * attu_builtin_function_name, is not every function the grammar reads:
 * now is none of it); ::oid of it is 0A000 for a listed built-in, else
 * 42883. PostgreSQL's errors: 42883 no such function (a signature no SQL
 * function of the name has), 42725 more than one of the name (regproc),
 * 42704 an unknown argument type, 22P02 a malformed signature, 3F000 an
 * unknown schema. */
static attu_bexpr *regproc_of_name(bctx *c, const scope *sc, const char *s, bool procedure, bool oid, int pos) {
    char name[ATTU_NAME_MAX + 1];
    bool builtin_only;
    const char *open = procedure ? strchr(s, '(') : NULL;
    const char *end = open ? open : s + strlen(s);
    if (procedure && !open) {
        attu_error_set(c->err, "22P02", pos, "expected a left parenthesis");
        return NULL;
    }
    if (!regproc_name(c, s, end, name, &builtin_only, pos)) return NULL;
    const struct attu_comments *cs = attu_catalog_comments(c->cat);
    attu_sql_function *found = NULL;
    bool builtin = attu_builtin_function_name(name);
    if (procedure) {
        /* the argument types between the parentheses, split at commas
         * outside inner parentheses (numeric(10,2)) */
        const char *close = strrchr(open, ')');
        const char *rest = close ? close + 1 : NULL;
        while (rest && isspace((unsigned char)*rest)) rest++;
        if (!close || *rest) {
            attu_error_set(c->err, "22P02", pos, "expected a right parenthesis");
            return NULL;
        }
        attu_type types[ATTU_FUNCTION_MAX_ARGS];
        int nargs = 0;
        const char *p = open + 1;
        while (p < close && isspace((unsigned char)*p)) p++;
        while (p < close) {
            const char *q = p;
            int depth = 0;
            for (; q < close && (depth || *q != ','); q++) depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
            char tn[128];
            size_t len = (size_t)(q - p);
            while (len && isspace((unsigned char)p[len - 1])) len--;
            if (!len || len >= sizeof tn || nargs == ATTU_FUNCTION_MAX_ARGS) {
                attu_error_set(c->err, "22P02", pos, "invalid function signature \"%s\"", s);
                return NULL;
            }
            memcpy(tn, p, len);
            tn[len] = 0;
            if (attu_type_from_name(tn, -1, -1, &types[nargs], c->err)) { c->err->position = pos; return NULL; }
            nargs++;
            p = q < close ? q + 1 : q;
            while (p < close && isspace((unsigned char)*p)) p++;
        }
        if (!builtin_only) found = attu_sql_function_find(cs, name, nargs, types);
        if (!found && (oid ? !builtin : !builtin_only && attu_sql_function_exists(cs, name))) {
            attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "function \"%s\" does not exist", s);
            return NULL;
        }
    } else {
        int n = 0;
        attu_sql_function **fs = builtin_only ? NULL : attu_sql_functions_named(cs, name, &n);
        if (n < 0) { attu_error_oom(c->err); return NULL; }
        if (n + (builtin ? 1 : 0) > 1) {
            for (int i = 0; i < n; i++) attu_sql_function_free(fs[i]);
            free(fs);
            attu_error_set(c->err, "42725", pos, "more than one function named \"%s\"", name);
            return NULL;
        }
        if (n == 1) found = fs[0];
        free(fs);
        if (!found && oid && !builtin) {
            attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "function \"%s\" does not exist", s);
            return NULL;
        }
    }
    if (oid && !found) {   /* a built-in function */
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, pos, "built-in function \"%s\" has no OID in attu",
                       name);
        return NULL;
    }
    if (oid) {
        attu_bexpr *r = mk_const_int(c, attu_type_make(ATTU_TYPE_INT64), attu_function_oid(found->id));
        attu_sql_function_free(found);
        return r;
    }
    /* the text of the cast: the SQL function's name (and argument types)
     * as PostgreSQL's output writes them; another name as given */
    attu_strbuf t = { 0 };
    if (found) {
        sbuf id = {0};
        syscat_sb_ident(&id, found->name);
        attu_strbuf_printf(&t, "%s", id.p ? id.p : "");
        if (!id.p) t.oom = true;
        free(id.p);
        if (procedure) {
            char buf[96];
            attu_strbuf_printf(&t, "(");
            for (int i = 0; i < found->nargs; i++)
                attu_strbuf_printf(&t, "%s%s", i ? "," : "", function_type_name(found->arg_types[i], buf, sizeof buf));
            attu_strbuf_printf(&t, ")");
        }
        attu_sql_function_free(found);
    } else {
        attu_strbuf_printf(&t, "%s", procedure ? s : name);
    }
    sbuf b = {0};
    syscat_sb_quote(&b, t.p ? t.p : "");
    syscat_sb_puts(&b, "::text");
    if (t.oom) b.oom = true;
    free(t.p);
    bool failed;
    attu_bexpr *r = bind_macro(c, sc, &b, NULL, 0, pos, &failed);
    free(b.p);
    return r;
}

attu_bexpr *attu_bind_user_tableoid(bctx *c, const scope *sc, const char *q, int pos, bool *hit) {
    *hit = false;
    /* each table scan's hidden rowid carries the table's name (binder.c) */
    const char *table = NULL;
    for (int i = 0; i < sc->n; i++) {
        const scope_col *col = &sc->cols[i];
        if (!col->is_rowid || !col->row_type) continue;
        if (q ? !col->qual || strcmp(col->qual, q) : col->in_join) continue;
        if (table) {
            *hit = true;
            attu_error_set(c->err, ATTU_SQLSTATE_AMBIGUOUS_COLUMN, pos, "column reference \"tableoid\" is ambiguous");
            return NULL;
        }
        table = col->row_type;
    }
    if (!table) return NULL;
    *hit = true;
    syscat_rels rs;
    if (!syscat_rels_load(c, &rs)) { attu_error_oom(c->err); return NULL; }
    const rel_info *ri = syscat_rel_find(&rs, table);
    const int64_t oid = ri ? ri->oid : 0;
    syscat_rels_free(&rs);
    return mk_const_int(c, attu_type_make(ATTU_TYPE_INT64), oid);
}

/* The name a cast to regclass / regtype / regnamespace reads at bind
 * time: a string literal's text, or a parameter's value ($1::regtype, as
 * psycopg 3's TypeInfo.fetch sends the type's name; statements bind again
 * with each Bind's values). Returns false for another argument (an OID
 * column: the cast is then the OID's name, a macro). *name is NULL for a
 * NULL parameter and for one at Parse, before it has a value; the cast is
 * then an int8 NULL, its column's type. An untyped parameter is inferred
 * text: attu has no regtype (PostgreSQL describes it as 2206), and the
 * value is a name; one typed as a string is a name too. */
static bool reg_name_arg(bctx *c, const attu_ast_expr *arg, const char **name) {
    if (arg->kind == ATTU_EXPR_LITERAL && arg->u.literal.kind == ATTU_LIT_STRING) {
        *name = arg->u.literal.text;
        return true;
    }
    if (arg->kind != ATTU_EXPR_PARAM || !c->params) return false;
    int k = arg->u.param.number;
    const attu_bind_params *p = c->params;
    if (k < 1 || k > p->n) return false;   /* bind_param's 42P02 */
    /* a parameter of a number type (declared, or typed by an earlier
     * use) is an OID: the cast names it, as for a column */
    attu_type t = p->types ? p->types[k - 1] : attu_type_make(ATTU_TYPE_UNKNOWN);
    if (t.id == ATTU_TYPE_UNKNOWN && p->inferred) t = p->inferred[k - 1];
    if (t.id != ATTU_TYPE_UNKNOWN && (t.id != ATTU_TYPE_TEXT || attu_type_is_enum(t) || attu_type_is_uuid(t)))
        return false;
    if (t.id == ATTU_TYPE_UNKNOWN && p->inferred) p->inferred[k - 1] = attu_type_make(ATTU_TYPE_TEXT);
    *name = p->values ? p->values[k - 1] : NULL;
    return true;
}

attu_bexpr *attu_bind_catalog_cast(bctx *c, const scope *sc, const attu_ast_expr *e, bool *handled) {
    *handled = false;
    const char *tn = e->u.cast.type.name;
    const attu_ast_expr *arg = e->u.cast.arg;
    const char *name;
    bool procedure;
    if (!tn) return NULL;
    macro_fn body = NULL;
    if (!strcmp(tn, "regclass")) {
        if (reg_name_arg(c, arg, &name)) {
            *handled = true;
            if (!name) return mk_const_null(c, attu_type_make(ATTU_TYPE_INT64));
            return regclass_of_name(c, name, arg->position);
        }
        body = binds_to_text(c, sc, arg) ? m_regclass_of_text : m_regclass;
    } else if (!strcmp(tn, "regtype")) {
        if (reg_name_arg(c, arg, &name)) {
            /* 'name'::regtype: the type's OID */
            *handled = true;
            if (!name) return mk_const_null(c, attu_type_make(ATTU_TYPE_INT64));
            return regtype_of_name(c, name, arg->position);
        }
        body = m_regtype;
    }
    else if (!strcmp(tn, "regproc") || !strcmp(tn, "regprocedure")) {
        procedure = !strcmp(tn, "regprocedure");
        if (reg_name_arg(c, arg, &name)) {
            *handled = true;
            if (!name) return mk_const_null(c, attu_type_make(ATTU_TYPE_TEXT));
            return regproc_of_name(c, sc, name, procedure, false, arg->position);
        }
        body = procedure ? m_regprocedure : m_regproc;
    } else if (!strcmp(tn, "oid") && regproc_name_of(c, arg, &name, &procedure)) {
        /* 'name'::regproc::oid (psql's \sf and \ef): the function's OID */
        *handled = true;
        if (!name) return mk_const_null(c, attu_type_make(ATTU_TYPE_INT64));
        return regproc_of_name(c, sc, name, procedure, true, arg->u.cast.arg->position);
    } else if (!strcmp(tn, "regnamespace")) {
        if (reg_name_arg(c, arg, &name)) {
            /* 'public'::regnamespace: the schema's OID */
            static const struct { const char *name; int oid; } ns[] = {
                { "pg_catalog", OID_PG_CATALOG }, { "pg_toast", OID_PG_TOAST }, { "public", OID_PUBLIC },
                { "information_schema", OID_INFO_SCHEMA },
            };
            *handled = true;
            if (!name) return mk_const_null(c, attu_type_make(ATTU_TYPE_INT64));
            for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
                if (!strcmp(ns[i].name, name))
                    return mk_const_int(c, attu_type_make(ATTU_TYPE_INT64), ns[i].oid);
            attu_error_set(c->err, "3F000", arg->position, "schema \"%s\" does not exist", name);
            return NULL;
        }
        body = m_regnamespace;
    } else if (!strcmp(tn, "text") && arg->kind == ATTU_EXPR_CAST && arg->u.cast.type.name &&
               arg->u.cast.arg->kind == ATTU_EXPR_LITERAL && arg->u.cast.arg->u.literal.kind == ATTU_LIT_STRING &&
               (!strcmp(arg->u.cast.type.name, "regclass") || !strcmp(arg->u.cast.type.name, "regnamespace") ||
                !strcmp(arg->u.cast.type.name, "regtype"))) {
        /* 'name'::regclass::text: the relation's name, as regclass output
         * writes it (the literal alone binds to its OID); regnamespace's
         * likewise (an OID's cast, 23::regtype, is the name already) */
        body = !strcmp(arg->u.cast.type.name, "regclass") ? m_regclass
             : !strcmp(arg->u.cast.type.name, "regtype") ? m_regtype : m_regnamespace;
    } else {
        /* the catalog's types as attu has them */
        static const struct { const char *pg, *attu; } alias[] = {
            { "oid", "bigint" }, { "xid", "bigint" }, { "name", "text" }, { "regoper", "text" }, { "regoperator", "text" },
            { "oid[]", "bigint[]" }, { "name[]", "text[]" }, { "int2vector", "smallint[]" }, { "oidvector", "bigint[]" },
            { "pg_node_tree", "text" },
        };
        for (size_t i = 0; i < sizeof alias / sizeof alias[0]; i++)
            if (!strcmp(tn, alias[i].pg)) {
                attu_ast_expr copy = *e;
                copy.u.cast.type.name = (char *)alias[i].attu;
                *handled = true;
                return bind_expr(c, sc, &copy);
            }
        return NULL;
    }
    *handled = true;
    sbuf b = {0};
    body(c, &b, 1);
    bool body_failed;
    attu_bexpr *r = bind_macro(c, sc, &b, &arg, 1, e->position, &body_failed);
    free(b.p);
    return r;
}
