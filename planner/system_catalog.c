/*
 * system_catalog.c - PostgreSQL's system catalogs (pg_catalog.pg_class,
 * pg_attribute, ..., information_schema.tables, columns, schemata), built
 * from attu's table catalog when a query names one. The catalog functions
 * their queries call are planner/catalog_functions.c's.
 *
 * Why SQL text: a system relation is written out as the SQL of a VALUES
 * list over the catalog as it is at bind time (one row per table, column,
 * ...), with PostgreSQL's column names, and bound like a subquery in FROM.
 * The rows are constants of the plan, so they run on the CPU and GPU
 * backends as any VALUES does, and live exactly as long as the statement's
 * plan (the parsed text is freed with the plan arena).
 *
 * PostgreSQL's types become attu's: oid (and xid, regproc) bigint, name
 * and "char" text, pg_node_tree text, aclitem[] text[], int2vector
 * smallint[], oidvector bigint[]; information_schema's domains their base
 * types (sql_identifier, character_data, yes_or_no text, cardinal_number
 * integer). Values print as PostgreSQL's do.
 *
 * What the relations hold: the schemas pg_catalog, public (attu's tables)
 * and information_schema; the user relations (in public, owned by the
 * connected user): tables (relkind 'r') with their columns and DEFAULTs,
 * views ('v', with a check option's reloptions), materialized views ('m':
 * the view's entry over the table of its rows, which is not listed as a
 * table, pg_matviews), sequences ('S', the db layer's, through
 * attu_bind_params.list_sequences; a serial or identity column's own
 * one depends on its column in pg_depend) and the PRIMARY KEY / UNIQUE
 * constraints (pg_constraint), each with the index PostgreSQL would give
 * it ('i', named as the constraint; attu checks keys without one); the
 * types attu has; one database, one role; the settings attu has
 * (pg_settings, engine/setting_catalog.h, with the session's values
 * through attu_bind_params.setting_state). Other constraints, policies,
 * statistics, publications, inheritance, rules: none (their relations
 * exist, empty, so the queries psql sends for \d TABLE run). The system
 * relations themselves are not listed in pg_class.
 *
 * Name resolution (the binder's bind_table_ref): pg_catalog.NAME and
 * information_schema.NAME are these relations (42P01 for another name); an
 * unqualified NAME is a user table of that name when one exists, else the
 * pg_catalog relation (so a user's table called pg_class still works, where
 * PostgreSQL, which searches pg_catalog first, would read its own).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "planner/system_catalog_internal.h"
#include "engine/domain_type.h"
#include "engine/enum_type.h"
#include "engine/role.h"
#include "engine/types.h"

#include "engine/sequence.h"
#include "engine/sql_function.h"
#include "engine/setting_catalog.h"
#include "planner/lexer.h"

/* ---- SQL text ------------------------------------------------------------------ */

/* An identifier as PostgreSQL's quote_ident writes it (regclass output,
 * index definitions): bare when lower case letters, digits and _ (not
 * first a digit) and no keyword but an unreserved one. */
void syscat_sb_ident(sbuf *b, const char *s) {
    if (!attu_ident_needs_quotes(s)) { syscat_sb_puts(b, s); return; }
    syscat_sb_puts(b, "\"");
    for (const char *p = s; *p; p++) { syscat_sb_add(b, p, 1); if (*p == '"') syscat_sb_add(b, "\"", 1); }
    syscat_sb_puts(b, "\"");
}

/* ---- OIDs --------------------------------------------------------------------- */

/* A relation's OID: a hash of its name in [16384, 2^31), so the OID psql
 * reads in one statement names the same relation in the next whatever
 * relations come and go between them; a collision moves the later name
 * (in name order) on by one. */
uint32_t syscat_name_hash_oid(const char *name) {
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) { h ^= *p; h *= 16777619u; }
    return FIRST_USER_OID + h % (0x7fffffffu - FIRST_USER_OID);
}

int64_t syscat_check_oid(const char *table, const char *name) {
    char key[2 * ATTU_NAME_MAX + 8];
    snprintf(key, sizeof key, "%s\001check\001%s", table, name);
    return syscat_name_hash_oid(key);
}

char *syscat_check_definition(const attu_check *c, bool pretty) {
    const char *e = c->expr;
    size_t n = strlen(e);
    while (n && (*e == ' ' || *e == '\t' || *e == '\n' || *e == '\r')) { e++; n--; }
    while (n && (e[n - 1] == ' ' || e[n - 1] == '\t' || e[n - 1] == '\n' || e[n - 1] == '\r')) n--;
    sbuf d = {0};
    syscat_sb_printf(&d, pretty ? "CHECK (%.*s)" : "CHECK ((%.*s))", (int)n, e);
    if (c->not_valid) syscat_sb_puts(&d, " NOT VALID");
    if (d.oom) { free(d.p); return NULL; }
    return d.p;
}

static int rel_by_name(const void *a, const void *b) {
    return strcmp(((const rel_info *)a)->name, ((const rel_info *)b)->name);
}

void syscat_rels_free(syscat_rels *rs) {
    for (int i = 0; i < rs->nseqs; i++) attu_sequence_free(rs->seqs[i]);
    free(rs->seqs);
    free(rs->r);
    memset(rs, 0, sizeof *rs);
}

/* The relations with their OIDs: the hash of each name, a collision
 * moving the later name (in name order) on by one. */
bool syscat_rels_load(const bctx *c, syscat_rels *rs) {
    memset(rs, 0, sizeof *rs);
    const attu_catalog *cat = c->cat;
    const attu_bind_params *bp = c->params;
    if (bp && bp->list_sequences && bp->list_sequences(bp->sequence_ctx, &rs->seqs, &rs->nseqs)) return false;
    const attu_views *vs = attu_catalog_views(cat);
    size_t nt = attu_catalog_count(cat), nv = vs ? attu_views_count(vs) : 0, k = nt + nv + (size_t)rs->nseqs;
    for (size_t i = 0; i < nt; i++) {
        int nu, ni;
        attu_catalog_uniques(cat, attu_catalog_at(cat, i)->name, &nu);
        attu_catalog_indexes(cat, attu_catalog_at(cat, i)->name, &ni);
        k += (size_t)nu + (size_t)ni;
    }
    if (!k) return true;
    rel_info *r = calloc(k, sizeof *r);
    size_t cap = 16;
    while (cap < 2 * k) cap *= 2;
    int64_t *taken = calloc(cap, sizeof *taken);   /* open addressing (0: free), one probe per relation */
    if (!r || !taken) { free(r); free(taken); syscat_rels_free(rs); return false; }
    size_t n = 0;
    for (size_t i = 0; i < nt; i++) {
        const attu_table *t = attu_catalog_at(cat, i);
        const attu_view *mv = attu_views_find(vs, t->name);
        if (mv && mv->kind == 'm') {   /* (its rows: listed with the view, 'm'; its indexes here) */
            int ni;
            const attu_index_def *ix = attu_catalog_indexes(cat, t->name, &ni);
            for (int j = 0; j < ni; j++) r[n++] = (rel_info){ .name = ix[j].name, .kind = 'i', .t = t, .ix = &ix[j] };
            continue;
        }
        size_t first = n;
        r[n++] = (rel_info){ .name = t->name, .kind = 'r', .t = t };
        int nu;
        const attu_unique *u = attu_catalog_uniques(cat, t->name, &nu);
        for (int j = 0; j < nu; j++)
            if (!u[j].index) r[n++] = (rel_info){ .name = u[j].name, .kind = 'i', .t = t, .u = &u[j] };
        /* CREATE INDEX's (a unique one's key, among the uniques, is its) */
        int ni;
        const attu_index_def *ix = attu_catalog_indexes(cat, t->name, &ni);
        for (int j = 0; j < ni; j++) r[n++] = (rel_info){ .name = ix[j].name, .kind = 'i', .t = t, .ix = &ix[j] };
        /* a temporary table and its indexes live in the session's pg_temp_N */
        if (attu_catalog_is_top(cat, t))
            for (size_t j = first; j < n; j++) r[j].temp = true;
    }
    for (size_t i = 0; i < nv; i++) {
        const attu_view *v = attu_views_at(vs, i);
        r[n++] = (rel_info){ .name = v->name, .kind = v->kind, .v = v,
                             .t = v->kind == 'm' ? attu_catalog_lookup(cat, v->name) : NULL,
                             .temp = attu_catalog_view_is_top(cat, v) };
        if (v->kind == 'm' && !r[n - 1].t) n--;   /* (cannot be: the two go together) */
    }
    for (int i = 0; i < rs->nseqs; i++)
        r[n++] = (rel_info){ .name = rs->seqs[i]->name, .kind = 'S', .s = rs->seqs[i],
                             .temp = rs->seqs[i]->temp_owner != NULL };   /* (CREATE TEMP SEQUENCE's, a temporary table's serial column's) */
    qsort(r, n, sizeof *r, rel_by_name);
    for (size_t i = 0; i < n; i++) {
        int64_t oid = syscat_name_hash_oid(r[i].name);
        for (;;) {
            size_t h = (size_t)oid * 2654435761u & (cap - 1);
            while (taken[h] && taken[h] != oid) h = (h + 1) & (cap - 1);
            if (!taken[h]) { taken[h] = oid; break; }
            oid = oid + 1 >= 0x7fffffff ? FIRST_USER_OID : oid + 1;   /* a collision: the next one */
        }
        r[i].oid = oid;
    }
    free(taken);
    rs->r = r;
    rs->n = n;
    for (size_t i = 0; i < n; i++)
        if (r[i].kind == 'i') {
            const rel_info *t = syscat_rel_find(rs, r[i].t->name);
            r[i].table_oid = t ? t->oid : 0;
        }
    return true;
}

const rel_info *syscat_rel_find(const syscat_rels *rs, const char *name) {
    if (!rs->n) return NULL;
    rel_info key = { .name = name };
    return bsearch(&key, rs->r, rs->n, sizeof *rs->r, rel_by_name);
}

const attu_sequence *syscat_owned_sequence(const syscat_rels *rs, const char *table, const char *column) {
    for (int i = 0; i < rs->nseqs; i++) {
        const attu_sequence *s = rs->seqs[i];
        if (s->owner_table && s->owner_column && !strcmp(s->owner_table, table) && !strcmp(s->owner_column, column))
            return s;
    }
    return NULL;
}

/* its index's OID + 1: distinct among the constraints as their indexes'
 * OIDs are, which is all it needs, as pg_constraint's OIDs are only ever
 * compared with each other (pg_get_constraintdef, a join on con.oid) */
int64_t syscat_constraint_oid(const rel_info *index) {
    return index->oid + 1 >= 0x7fffffff ? FIRST_USER_OID : index->oid + 1;
}

/* ---- types -------------------------------------------------------------------- */

/* pg_type's rows, as PostgreSQL 15 has them */
const pg_type_row syscat_pg_types[] = {
    {   16, "bool",        "boolean",                      1, true,  'B', 'c', 'p', 0, 1000, 0,   true },
    {   17, "bytea",       "bytea",                       -1, false, 'U', 'i', 'x', 0, 1001, 0,   false },
    {   18, "char",        "\"char\"",                     1, true,  'Z', 'c', 'p', 0, 1002, 0,   false },
    {   19, "name",        "name",                        64, false, 'S', 'c', 'p', 18, 1003, 950, false },
    {   20, "int8",        "bigint",                       8, true,  'N', 'd', 'p', 0, 1016, 0,   false },
    {   21, "int2",        "smallint",                     2, true,  'N', 's', 'p', 0, 1005, 0,   false },
    {   23, "int4",        "integer",                      4, true,  'N', 'i', 'p', 0, 1007, 0,   false },
    {   25, "text",        "text",                        -1, false, 'S', 'i', 'x', 0, 1009, 100, true },
    {   26, "oid",         "oid",                          4, true,  'N', 'i', 'p', 0, 1028, 0,   true },
    {  114, "json",        "json",                        -1, false, 'U', 'i', 'x', 0, 199,  0,   false },
    {  700, "float4",      "real",                         4, true,  'N', 'i', 'p', 0, 1021, 0,   false },
    {  701, "float8",      "double precision",             8, true,  'N', 'd', 'p', 0, 1022, 0,   true },
    { 1042, "bpchar",      "character",                   -1, false, 'S', 'i', 'x', 0, 1014, 100, false },
    { 1043, "varchar",     "character varying",           -1, false, 'S', 'i', 'x', 0, 1015, 100, false },
    { 1082, "date",        "date",                         4, true,  'D', 'i', 'p', 0, 1182, 0,   false },
    { 1083, "time",        "time without time zone",       8, true,  'D', 'd', 'p', 0, 1183, 0,   false },
    { 1114, "timestamp",   "timestamp without time zone",  8, true,  'D', 'd', 'p', 0, 1115, 0,   false },
    { 1184, "timestamptz", "timestamp with time zone",     8, true,  'D', 'd', 'p', 0, 1185, 0,   true },
    { 1186, "interval",    "interval",                    16, false, 'T', 'd', 'p', 0, 1187, 0,   true },
    { 1266, "timetz",      "time with time zone",         12, false, 'D', 'd', 'p', 0, 1270, 0,   false },
    { 1700, "numeric",     "numeric",                     -1, false, 'N', 'i', 'm', 0, 1231, 0,   false },
    { 2205, "regclass",    "regclass",                     4, true,  'N', 'i', 'p', 0, 2210, 0,   false },
    { 2950, "uuid",        "uuid",                        16, false, 'U', 'c', 'p', 0, 2951, 0,   false },
    { 3802, "jsonb",       "jsonb",                       -1, false, 'U', 'i', 'x', 0, 3807, 0,   false },
    { 3904, "int4range",   "int4range",                   -1, false, 'R', 'i', 'x', 0, 3905, 0,   false },
    { 3906, "numrange",    "numrange",                    -1, false, 'R', 'i', 'x', 0, 3907, 0,   false },
    { 3908, "tsrange",     "tsrange",                     -1, false, 'R', 'd', 'x', 0, 3909, 0,   false },
    { 3910, "tstzrange",   "tstzrange",                   -1, false, 'R', 'd', 'x', 0, 3911, 0,   false },
    { 3912, "daterange",   "daterange",                   -1, false, 'R', 'i', 'x', 0, 3913, 0,   false },
    { 3926, "int8range",   "int8range",                   -1, false, 'R', 'd', 'x', 0, 3927, 0,   false },
    { 4072, "jsonpath",    "jsonpath",                    -1, false, 'U', 'i', 'x', 0, 4073, 0,   false },
};
const size_t syscat_n_pg_types = sizeof syscat_pg_types / sizeof syscat_pg_types[0];

const pg_pseudo_type syscat_pseudo_types[] = {
    {   32, "pg_ddl_command" }, {  269, "table_am_handler" }, {  325, "index_am_handler" },
    { 2249, "record" }, { 2275, "cstring" }, { 2276, "\"any\"" }, { 2277, "anyarray" },
    { 2278, "void" }, { 2279, "trigger" }, { 2280, "language_handler" }, { 2281, "internal" },
    { 2283, "anyelement" }, { 2776, "anynonarray" }, { 3115, "fdw_handler" }, { 3310, "tsm_handler" },
    { 3500, "anyenum" }, { 3831, "anyrange" }, { 3838, "event_trigger" }, { 4537, "anymultirange" },
    { 4538, "anycompatiblemultirange" }, { 5077, "anycompatible" }, { 5078, "anycompatiblearray" },
    { 5079, "anycompatiblenonarray" }, { 5080, "anycompatiblerange" },
};
const size_t syscat_n_pseudo_types = sizeof syscat_pseudo_types / sizeof syscat_pseudo_types[0];

int syscat_pseudo_type_oid(const char *name) {
    char buf[64];
    size_t n = 0;
    const char *p = name;
    while (*p == ' ' || *p == '\t' || *p == '\n') p++;
    if (!strncasecmp(p, "pg_catalog.", 11)) p += 11;
    else if (!strncmp(p, "\"pg_catalog\".", 13)) p += 13;
    if (*p == '"') {
        /* a quoted name as written: "any", "trigger" */
        const char *q = strchr(p + 1, '"');
        if (!q || (size_t)(q - p) + 1 >= sizeof buf) return 0;
        n = (size_t)(q - p) + 1;
        memcpy(buf, p, n);
        p = q + 1;
    } else {
        for (; *p && *p != ' ' && *p != '\t' && *p != '\n'; p++) {
            if (n + 1 >= sizeof buf) return 0;
            buf[n++] = (char)tolower((unsigned char)*p);
        }
    }
    while (*p == ' ' || *p == '\t' || *p == '\n') p++;
    if (*p) return 0;
    buf[n] = 0;
    for (size_t i = 0; i < syscat_n_pseudo_types; i++) {
        const char *t = syscat_pseudo_types[i].name;
        /* "any" only quoted (ANY is a keyword); the others either way */
        if (!strcmp(buf, t)) return syscat_pseudo_types[i].oid;
        if (buf[0] == '"' && t[0] != '"' && n == strlen(t) + 2 && !strncmp(buf + 1, t, n - 2)) return syscat_pseudo_types[i].oid;
    }
    return 0;
}

static const pg_type_row *pg_type_by_oid(int oid) {
    for (size_t i = 0; i < syscat_n_pg_types; i++) if (syscat_pg_types[i].oid == oid) return &syscat_pg_types[i];
    return NULL;
}

/* The element type of array type oid (NULL: not one of these arrays). */
static const pg_type_row *pg_type_array_elem(int oid) {
    for (size_t i = 0; i < syscat_n_pg_types; i++) if (syscat_pg_types[i].array == oid) return &syscat_pg_types[i];
    return NULL;
}

/* atttypmod of a column of type t, as PostgreSQL keeps it: numeric(p,s)
 * ((p << 16) | s) + 4, varchar(n) and char(n) n + 4, a qualified interval
 * its fields and precision, else -1 (an array: its element's). */
int32_t syscat_type_modifier(attu_type t) {
    if (attu_type_is_array(t)) return attu_type_array_has_mod(t) ? syscat_type_modifier(attu_type_array_elem_mod(t)) : -1;
    if (t.id == ATTU_TYPE_INTERVAL) return attu_type_interval_typmod(t);
    if (t.id == ATTU_TYPE_DECIMAL && t.precision > 0 && !t.no_typmod)
        return (int32_t)(((uint32_t)t.precision << 16) | (uint16_t)t.scale) + 4;
    if (attu_type_is_bpchar(t) || (attu_type_is_varchar_any(t) && t.precision > 0)) return (int32_t)t.precision + 4;
    return -1;
}

/* format_type(t's OID, t's typmod): "character varying(20)", "numeric(10,2)",
 * "interval day to second(2)", "integer[]". */
const char *syscat_format_type(attu_type t, char *buf, size_t cap) {
    if (attu_type_is_array(t)) {
        char eb[96];
        attu_type e = attu_type_array_has_mod(t) ? attu_type_array_elem_mod(t) : attu_type_array_elem(t);
        snprintf(buf, cap, "%s[]", syscat_format_type(e, eb, sizeof eb));
        return buf;
    }
    if (t.id == ATTU_TYPE_INTERVAL && attu_type_is_qualified_interval(t)) return attu_type_interval_name(t, buf, cap);
    if (attu_type_is_bpchar(t)) { snprintf(buf, cap, "character(%d)", t.precision); return buf; }
    if (attu_type_is_bpchar_any(t)) { snprintf(buf, cap, "bpchar"); return buf; }
    if (attu_type_is_varchar_any(t) && t.precision > 0) { snprintf(buf, cap, "character varying(%d)", t.precision); return buf; }
    /* a DECIMAL holding a numeric of no typmod (a view's 1.5 column) */
    if (attu_type_is_free_decimal(t)) { snprintf(buf, cap, "numeric"); return buf; }
    return attu_type_name(t, buf, cap);
}

static const pg_type_row *column_pg_type(attu_type t) {
    return pg_type_by_oid((int)attu_type_pg_oid(t));
}

/* ---- relation text -------------------------------------------------------------- */

/* A relation under construction: its columns ("name type, ..." in attu's
 * types) and rows, written as one VALUES list whose every value carries
 * its column's cast (so the first row types the list and a NULL is typed
 * too). */
typedef struct rel_text {
    sbuf        b;
    const char *cols;       /* "oid bigint, relname text, ..." */
    char       *types[64];
    char       *names[64];
    int         ncols;
    int         col;        /* the next value's column in the current row */
    size_t      nrows;
} rel_text;

static bool rel_begin(rel_text *r, const char *cols) {
    memset(r, 0, sizeof *r);
    r->cols = cols;
    const char *p = cols;
    while (*p && r->ncols < 64) {
        while (*p == ' ' || *p == ',') p++;
        const char *ns = p;
        while (*p && *p != ' ') p++;
        const char *ts = p + 1;
        const char *te = strchr(ts, ',');
        if (!te) te = ts + strlen(ts);
        r->names[r->ncols] = strndup(ns, (size_t)(p - ns));
        r->types[r->ncols] = strndup(ts, (size_t)(te - ts));
        if (!r->names[r->ncols] || !r->types[r->ncols]) { r->b.oom = true; return false; }
        r->ncols++;
        p = te;
    }
    return true;
}

static void rel_free(rel_text *r) {
    for (int i = 0; i < r->ncols; i++) { free(r->names[i]); free(r->types[i]); }
    free(r->b.p);
}

/* starts the next value: "(" or ", " before it */
static void rel_sep(rel_text *r) {
    if (r->col == 0) syscat_sb_puts(&r->b, r->nrows ? ",\n(" : "(");
    else syscat_sb_puts(&r->b, ", ");
}
/* ends a value: its cast, and ")" after the row's last */
static void rel_end_value(rel_text *r) {
    syscat_sb_printf(&r->b, "::%s", r->types[r->col]);
    if (++r->col == r->ncols) { syscat_sb_puts(&r->b, ")"); r->col = 0; r->nrows++; }
}
/* (a negative one quoted: -9223372036854775808::bigint would cast before the minus) */
static void v_int(rel_text *r, int64_t v) { rel_sep(r); syscat_sb_printf(&r->b, v < 0 ? "'%lld'" : "%lld", (long long)v); rel_end_value(r); }
static void v_real(rel_text *r, double v) { rel_sep(r); syscat_sb_printf(&r->b, "'%.17g'", v); rel_end_value(r); }
static void v_bool(rel_text *r, bool v) { rel_sep(r); syscat_sb_puts(&r->b, v ? "true" : "false"); rel_end_value(r); }
static void v_null(rel_text *r) { rel_sep(r); syscat_sb_puts(&r->b, "NULL"); rel_end_value(r); }
static void v_text(rel_text *r, const char *s) {
    rel_sep(r);
    if (s) syscat_sb_quote(&r->b, s); else syscat_sb_puts(&r->b, "NULL");
    rel_end_value(r);
}
static void v_char(rel_text *r, char ch) { char s[2] = { ch, 0 }; v_text(r, s); }
static void v_nulls(rel_text *r, int n) { for (int i = 0; i < n; i++) v_null(r); }

/* The relation's query text (malloc'd): SELECT over the VALUES list, or
 * for no rows a SELECT of typed NULLs that keeps none; tableoid > 0: a
 * last column "tableoid", that constant (the binder hides it from *, as
 * PostgreSQL's system column). */
static char *rel_finish(rel_text *r, int64_t tableoid) {
    sbuf q = {0};
    char extra[48] = "";
    if (tableoid > 0) snprintf(extra, sizeof extra, ", %lld::bigint AS tableoid", (long long)tableoid);
    if (r->nrows) {
        syscat_sb_printf(&q, "SELECT *%s FROM (VALUES ", extra);
        if (r->b.p) syscat_sb_add(&q, r->b.p, r->b.n);
        syscat_sb_puts(&q, ") AS v(");
        for (int i = 0; i < r->ncols; i++) syscat_sb_printf(&q, "%s\"%s\"", i ? ", " : "", r->names[i]);
        syscat_sb_puts(&q, ")");
    } else {
        syscat_sb_puts(&q, "SELECT ");
        for (int i = 0; i < r->ncols; i++) syscat_sb_printf(&q, "%sNULL::%s AS \"%s\"", i ? ", " : "", r->types[i], r->names[i]);
        syscat_sb_printf(&q, "%s WHERE false", extra);
    }
    /* a row of a wrong width: this file's fault (the parse would fail) */
    bool oom = q.oom || r->b.oom || r->col != 0;
    rel_free(r);
    if (oom) { free(q.p); return NULL; }
    return q.p;
}

/* ---- the relations ------------------------------------------------------------ */

typedef struct syscat_env {
    const attu_catalog     *cat;
    const attu_bind_params *params;
    syscat_rels             rs;
    const char             *user;
    const char             *database;
} syscat_env;

/* Whether view v can take INSERT and UPDATE, as information_schema's
 * is_insertable_into and is_updatable tell it: automatically updatable
 * (the db layer's answer) with a column that can be assigned (cols, when
 * not NULL, v->ncols entries: which ones). */
static bool view_updatable(const syscat_env *env, const attu_view *v, bool *cols) {
    bool own[64], *c = cols ? cols : v->ncols <= 64 ? own : NULL;
    if (c) for (int k = 0; k < v->ncols; k++) c[k] = false;
    if (!env->params || !env->params->view_updatable ||
        !env->params->view_updatable(env->params->sequence_ctx, v->name, c, c ? v->ncols : 0))
        return false;
    if (!c) return true;   /* over 64 columns: the view's answer alone */
    for (int k = 0; k < v->ncols; k++) if (c[k]) return true;
    return false;
}

/* The identity ('a' / 'd') of table t's column k, 0 for none. */
static char column_identity(const syscat_env *env, const attu_table *t, int k) {
    const attu_sequence *s = syscat_owned_sequence(&env->rs, t->name, t->defs[k].name);
    return s ? s->identity : 0;
}

/* A relation's schema: public, or the session's pg_temp_N */
static int64_t rel_ns_oid(const syscat_env *env, const rel_info *ri) {
    unsigned oid = OID_PUBLIC;
    if (ri->temp) attu_catalog_top_schema(env->cat, &oid);
    return oid;
}
static const char *rel_ns(const syscat_env *env, const rel_info *ri) {
    const char *n = ri->temp ? attu_catalog_top_schema(env->cat, NULL) : NULL;
    return n ? n : "public";
}

static void rows_pg_namespace(rel_text *r, const syscat_env *env) {
    static const struct { int oid; const char *name; int owner; } ns[] = {
        { OID_PG_CATALOG, "pg_catalog", OID_USER }, { OID_PG_TOAST, "pg_toast", OID_USER },
        { OID_PUBLIC, "public", OID_DB_OWNER }, { OID_INFO_SCHEMA, "information_schema", OID_USER },
    };
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        v_int(r, ns[i].oid); v_text(r, ns[i].name); v_int(r, ns[i].owner); v_null(r);
    }
    unsigned temp_oid;
    const char *temp = attu_catalog_top_schema(env->cat, &temp_oid);   /* (the session's temporary tables') */
    if (temp) { v_int(r, temp_oid); v_text(r, temp); v_int(r, OID_USER); v_null(r); }
}

/* pg_am's OID of an index's access method */
static int64_t index_am(const rel_info *ri) {
    const char *m = ri->ix ? ri->ix->method : "btree";
    static const struct { const char *name; int64_t oid; } ams[] = {
        { "btree", OID_BTREE_AM }, { "hash", 405 }, { "gist", 783 }, { "gin", 2742 }, { "spgist", 4000 }, { "brin", 3580 },
    };
    for (size_t i = 0; i < sizeof ams / sizeof *ams; i++) if (!strcmp(ams[i].name, m)) return ams[i].oid;
    return OID_BTREE_AM;
}

int syscat_index_ncols(const rel_info *ri) {
    return ri->ix ? ri->ix->ncols : ri->u->ncols;
}

static void rows_pg_class(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        char kind = ri->kind;
        /* a materialized view ('m') is stored as a table is and has a
         * view's rule */
        bool heap = kind == 'r' || kind == 'm';
        int natts = heap ? ri->t->ncols : kind == 'v' ? ri->v->ncols : kind == 'i' ? syscat_index_ncols(ri) : 3;
        int nu = 0, nchecks = 0, nix = 0;
        if (kind == 'r') attu_catalog_uniques(env->cat, ri->t->name, &nu);
        if (kind == 'r' || kind == 'm') attu_catalog_indexes(env->cat, ri->t->name, &nix);
        if (kind == 'r') attu_catalog_checks(env->cat, ri->t->name, &nchecks);
        /* PostgreSQL's: a table's heap, an index's btree; a view has no
         * storage; a sequence is one page of one row */
        v_int(r, ri->oid); v_text(r, ri->name); v_int(r, rel_ns_oid(env, ri));
        v_int(r, 0); v_int(r, 0); v_int(r, OID_USER);
        v_int(r, heap ? OID_HEAP_AM : kind == 'i' ? index_am(ri) : 0);
        v_int(r, kind == 'v' ? 0 : ri->oid); v_int(r, 0);
        v_int(r, kind == 'S' || kind == 'i' ? 1 : 0);
        v_real(r, kind == 'r' ? (double)ri->t->nrows : kind == 'v' || kind == 'm' ? -1.0 : kind == 'S' ? 1.0 : 0.0);
        v_int(r, 0); v_int(r, 0);
        v_bool(r, nu + nix > 0); v_bool(r, false); v_char(r, ri->temp ? 't' : 'p'); v_char(r, kind);
        v_int(r, natts); v_int(r, nchecks);
        v_bool(r, kind == 'v' || kind == 'm'); v_bool(r, kind == 'r' && syscat_fkey_triggers(env->cat, ri->name));
        v_bool(r, false); v_bool(r, false); v_bool(r, false);
        v_bool(r, kind != 'm' || ri->v->populated);
        v_char(r, heap ? 'd' : 'n'); v_bool(r, false); v_int(r, 0); v_int(r, 0); v_int(r, heap ? 1 : 0);
        v_null(r);
        /* reloptions: a view's check option, as WITH (check_option = ...)
         * sets it; an index's storage parameters */
        if (kind == 'v' && ri->v->check_option)
            v_text(r, ri->v->check_option == 'l' ? "{check_option=local}" : "{check_option=cascaded}");
        else if (kind == 'i' && ri->ix && ri->ix->options) {
            sbuf a = {0};
            syscat_sb_puts(&a, "{");
            for (const char *p = ri->ix->options; *p; p++) {
                if (*p == ',' && p[1] == ' ') { syscat_sb_puts(&a, ","); p++; continue; }
                if (*p == '\'') continue;   /* (the values' quotes are the definition's) */
                syscat_sb_add(&a, p, 1);
            }
            syscat_sb_puts(&a, "}");
            if (a.oom) r->b.oom = true;
            v_text(r, a.p ? a.p : "{}");
            free(a.p);
        } else v_null(r);
        v_null(r);
    }
}

/* A column's storage and alignment: its type's, an array's 'x' and its
 * element's alignment (as 8-byte elements align 'd'). */
static void column_layout(attu_type t, const pg_type_row *pt, int *len, bool *byval, char *align, char *storage) {
    if (pt) { *len = pt->len; *byval = pt->byval; *align = pt->align; *storage = pt->storage; return; }
    *len = -1; *byval = false; *storage = 'x'; *align = 'i';
    if (attu_type_is_array(t)) {
        const pg_type_row *e = pg_type_by_oid((int)attu_type_pg_oid(attu_type_array_elem(t)));
        if (e && e->align == 'd') *align = 'd';
    }
}

static int column_collation(attu_type t) {
    attu_type e = attu_type_is_array(t) ? attu_type_array_elem(t) : t;
    /* (an enum has no collation, nor has a range type) */
    return e.id == ATTU_TYPE_TEXT && !attu_type_is_enum(e) && !attu_type_is_range(e) ? 100 : 0;
}

/* Where the domains of ri's columns are kept: a temporary relation's in
 * its layer's store (engine/catalog.h). */
static const attu_comments *rel_domain_columns(const syscat_env *env, const rel_info *ri) {
    bool top = ri->kind == 'v' ? attu_catalog_view_is_top(env->cat, ri->v) : ri->temp;
    return attu_catalog_domain_comments(env->cat, top);
}

/* Whether a column's domain text is an array's, "d[]". */
static bool domain_text_is_array(const char *dn) {
    size_t n = dn ? strlen(dn) : 0;
    return n > 2 && !strcmp(dn + n - 2, "[]");
}

/* The OID of the type of column col of relation ri that is a domain's
 * (the domain's, or for "d[]" its array type's), 0: none. */
static unsigned column_domain_oid(const syscat_env *env, const rel_info *ri, const char *col) {
    const attu_comments *cs = attu_catalog_comments(env->cat);
    const char *dn = attu_domain_of_column(rel_domain_columns(env, ri), ri->name, col);
    if (!dn) return 0;
    bool arr = domain_text_is_array(dn);
    char en[ATTU_NAME_MAX + 1];
    snprintf(en, sizeof en, "%.*s", (int)(strlen(dn) - (arr ? 2 : 0)), dn);
    attu_domain_def *d = attu_domain_find_in(cs, en);
    unsigned oid = d ? (arr ? attu_domain_array_oid(d->id) : attu_domain_oid(d->id)) : 0;
    attu_domain_def_free(d);
    return oid;
}

/* One pg_attribute row; domain: the column's domain's OID (0: none),
 * its atttypid, with atttypmod -1 (PostgreSQL's for a domain column). */
/* (generated: attgenerated, 's' for a stored generated column, 0 none) */
static void attribute_row_of(rel_text *r, int64_t relid, const char *name, attu_type ty, int attnum, bool notnull,
                             bool hasdef, char identity, char generated, unsigned domain) {
    const pg_type_row *pt = column_pg_type(ty);
    int len; bool byval; char align, storage;
    column_layout(ty, pt, &len, &byval, &align, &storage);
    v_int(r, relid); v_text(r, name); v_int(r, domain ? domain : attu_type_pg_oid(ty));
    v_int(r, -1); v_int(r, len); v_int(r, attnum); v_int(r, attu_type_is_array(ty) ? 1 : 0); v_int(r, -1);
    v_int(r, domain ? -1 : syscat_type_modifier(ty)); v_bool(r, byval); v_char(r, align); v_char(r, storage); v_text(r, "");
    v_bool(r, notnull); v_bool(r, hasdef);
    v_bool(r, false); v_text(r, identity ? (char[]){ identity, 0 } : "");
    v_text(r, generated ? (char[]){ generated, 0 } : ""); v_bool(r, false); v_bool(r, true);
    v_int(r, 0); v_int(r, column_collation(ty));
    v_nulls(r, 4);
}

static void attribute_row(rel_text *r, int64_t relid, const char *name, attu_type ty, int attnum, bool notnull,
                          bool hasdef, char identity) {
    attribute_row_of(r, relid, name, ty, attnum, notnull, hasdef, identity, 0, 0);
}

/* Columns of every relation: a table's (an identity column has no
 * DEFAULT, as in PostgreSQL: its sequence is its attidentity), a view's,
 * an index's key columns (named and typed as the table's), a sequence's
 * last_value, log_cnt, is_called. */
static void rows_pg_attribute(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        const attu_table *t = ri->t;
        switch (ri->kind) {
        case 'r':
            for (int k = 0; k < t->ncols; k++) {
                char id = column_identity(env, t, k);
                attribute_row_of(r, ri->oid, t->defs[k].name, t->defs[k].type, k + 1, t->defs[k].not_null,
                                 !id && attu_catalog_default(env->cat, t->name, k) != NULL, id, t->defs[k].generated,
                                 column_domain_oid(env, ri, t->defs[k].name));
            }
            break;
        case 'm':
            for (int k = 0; k < t->ncols; k++)
                attribute_row(r, ri->oid, t->defs[k].name, t->defs[k].type, k + 1, false, false, 0);
            break;
        case 'v':
            for (int k = 0; k < ri->v->ncols; k++) {
                attribute_row_of(r, ri->oid, ri->v->col_names[k], ri->v->col_types[k], k + 1, false,
                                 ri->v->col_defaults[k] != NULL, 0, 0, column_domain_oid(env, ri, ri->v->col_names[k]));
            }
            break;
        case 'i':
            for (int k = 0; k < syscat_index_ncols(ri); k++) {
                int c = ri->ix ? ri->ix->cols[k] : ri->u->cols[k];
                if (c >= 0) {
                    attribute_row(r, ri->oid, t->defs[c].name, t->defs[c].type, k + 1, false, false, 0);
                    continue;
                }
                /* an expression's column: the name PostgreSQL gives it */
                const char *nm = ri->ix->names[k] ? ri->ix->names[k] : "expr";
                attribute_row(r, ri->oid, nm, attu_type_make(ATTU_TYPE_TEXT), k + 1, false, false, 0);
            }
            break;
        default:
            attribute_row(r, ri->oid, "last_value", attu_type_make(ATTU_TYPE_INT64), 1, true, false, 0);
            attribute_row(r, ri->oid, "log_cnt", attu_type_make(ATTU_TYPE_INT64), 2, true, false, 0);
            attribute_row(r, ri->oid, "is_called", attu_type_make(ATTU_TYPE_BOOL), 3, true, false, 0);
            break;
        }
    }
}

/* A column's DEFAULT as pg_get_expr shows it: the text attu keeps, and a
 * string constant's type as PostgreSQL's deparser adds it ('x'::text,
 * '2024-01-01'::date) where the column's type is not a number's. The
 * result is buf or d. */
static const char *default_text(attu_type t, const char *d, char *buf, size_t cap) {
    size_t n = strlen(d);
    bool literal = n >= 2 && d[0] == '\'' && d[n - 1] == '\'';
    for (size_t i = 1; literal && i + 1 < n; i++) {
        if (d[i] != '\'') continue;
        if (d[i + 1] == '\'' && i + 2 < n) i++;
        else literal = false;
    }
    /* the SQL clock keywords, which PostgreSQL's deparser writes in
     * capitals (CURRENT_DATE, CURRENT_TIMESTAMP(3)) */
    static const char *const clocks[] = { "current_date", "current_timestamp", "current_time", "localtimestamp",
                                          "localtime" };
    for (size_t k = 0; k < sizeof clocks / sizeof clocks[0]; k++) {
        size_t m = strlen(clocks[k]);
        if (strncasecmp(d, clocks[k], m) || (d[m] && d[m] != '(') || m >= cap) continue;
        for (size_t i = 0; i < m; i++) buf[i] = clocks[k][i] == '_' ? '_' : (char)(clocks[k][i] - 'a' + 'A');
        snprintf(buf + m, cap - m, "%s", d + m);
        return buf;
    }
    /* a serial column's nextval('seq'): the argument is a regclass */
    if (!strncmp(d, "nextval('", 9) && n > 11 && !strcmp(d + n - 2, "')")) {
        if ((size_t)snprintf(buf, cap, "%.*s::regclass)", (int)(n - 1), d) >= cap) return d;
        return buf;
    }
    if (!literal || attu_type_is_array(t)) return d;
    const char *cast;
    char en[80];
    switch (t.id) {
    case ATTU_TYPE_TEXT:
        if (attu_type_is_enum(t)) { cast = attu_type_name(t, en, sizeof en); break; }
        cast = attu_type_is_bpchar_any(t) ? "bpchar" : attu_type_is_varchar_any(t) ? "character varying" : "text"; break;
    case ATTU_TYPE_DATE: case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIMESTAMPTZ: case ATTU_TYPE_TIME:
    case ATTU_TYPE_TIMETZ: case ATTU_TYPE_INTERVAL: {
        const pg_type_row *pt = column_pg_type(t);
        cast = pt ? pt->format : NULL;
        break;
    }
    default: cast = NULL; break;
    }
    if (!cast || (size_t)snprintf(buf, cap, "%s::%s", d, cast) >= cap) return d;
    return buf;
}

static void rows_pg_attrdef(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        if (env->rs.r[i].kind == 'v') {
            /* a view's (ALTER VIEW ... SET DEFAULT) */
            const attu_view *v = env->rs.r[i].v;
            for (int k = 0; k < v->ncols; k++) {
                if (!v->col_defaults[k]) continue;
                v_int(r, (int64_t)FIRST_USER_OID - 1 - (int64_t)((env->rs.r[i].oid * 1601 + k) % 8000));
                char buf[1024];
                v_int(r, env->rs.r[i].oid); v_int(r, k + 1);
                v_text(r, default_text(v->col_types[k], v->col_defaults[k], buf, sizeof buf));
            }
            continue;
        }
        if (env->rs.r[i].kind != 'r') continue;
        const attu_table *t = env->rs.r[i].t;
        for (int k = 0; k < t->ncols; k++) {
            const char *d = attu_catalog_default(env->cat, t->name, k);
            if (!d || column_identity(env, t, k)) continue;
            /* an OID of its own, apart from the tables' hashes' usual range */
            v_int(r, (int64_t)FIRST_USER_OID - 1 - (int64_t)((env->rs.r[i].oid * 1601 + k) % 8000));
            char buf[1024];
            /* (a generated column's expression as kept: PostgreSQL's
             * deparse of the simple ones) */
            v_int(r, env->rs.r[i].oid); v_int(r, k + 1);
            v_text(r, t->defs[k].generated ? d : default_text(t->defs[k].type, d, buf, sizeof buf));
        }
    }
}

static void function_description_row(void *ctx, const attu_sql_function *f) {
    rel_text *r = ctx;
    if (!f->comment) return;
    v_int(r, attu_function_oid(f->id)); v_int(r, SYSCAT_OID_PG_PROC); v_int(r, 0); v_text(r, f->comment);
}

/* the languages PostgreSQL has built in (a SQL function's prolang is 14),
 * with their validators and PostgreSQL 15's descriptions of them
 * (system_catalog_internal.h) */
static const syscat_language builtin_languages[] = {
    { 12, "internal", false, 2246, "fmgr_internal_validator", "built-in functions" },
    { 13, "c", false, 2247, "fmgr_c_validator", "dynamically-loaded C functions" },
    { 14, "sql", true, 2248, "fmgr_sql_validator", "SQL-language functions" },
};

const syscat_language *syscat_builtin_language(size_t i) {
    return i < sizeof builtin_languages / sizeof *builtin_languages ? &builtin_languages[i] : NULL;
}

/* COMMENT ON's comments whose objects exist (system_catalog_comment.c),
 * the functions' (pg_proc's, kept in their definitions) and the built-in
 * languages' */
static void rows_pg_description(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < sizeof builtin_languages / sizeof *builtin_languages; i++) {
        v_int(r, builtin_languages[i].oid); v_int(r, SYSCAT_OID_PG_LANGUAGE); v_int(r, 0);
        v_text(r, builtin_languages[i].description);
    }
    attu_sql_function_each(attu_catalog_comments(env->cat), function_description_row, r);
    const attu_comments *cs = attu_catalog_comments(env->cat);
    for (size_t i = 0; i < attu_comments_count(cs); i++) {
        const attu_comment *c = attu_comments_at(cs, i);
        int64_t objoid, classoid;
        int sub;
        if (!syscat_comment_target(&env->rs, env->cat, c, &objoid, &classoid, &sub)) continue;
        v_int(r, objoid); v_int(r, classoid); v_int(r, sub); v_text(r, c->text);
    }
}

/* an enum type's row and its array's (engine/enum_type.h) */
static void enum_type_rows(void *ctx, const attu_enum_def *d) {
    rel_text *r = ctx;
    for (int arr = 0; arr < 2; arr++) {
        char name[80];
        snprintf(name, sizeof name, "%s%s", arr ? "_" : "", d->name);
        v_int(r, arr ? attu_enum_array_oid(d->id) : attu_enum_oid(d->id)); v_text(r, name); v_int(r, OID_PUBLIC);
        v_int(r, OID_USER); v_int(r, arr ? -1 : 4); v_bool(r, !arr); v_char(r, arr ? 'b' : 'e');
        v_char(r, arr ? 'A' : 'E'); v_bool(r, false); v_bool(r, true); v_char(r, ','); v_int(r, 0);
        v_text(r, arr ? "array_subscript_handler" : "-");
        v_int(r, arr ? attu_enum_oid(d->id) : 0); v_int(r, arr ? 0 : attu_enum_array_oid(d->id));
        static const char *const io[] = { "in", "out", "recv", "send" };
        for (int k = 0; k < 4; k++) {
            char fn[32];
            snprintf(fn, sizeof fn, "%s_%s", arr ? "array" : "enum", io[k]);
            if (arr) snprintf(fn, sizeof fn, "array_%s", io[k]);
            v_text(r, fn);
        }
        v_text(r, "-"); v_text(r, "-"); v_text(r, arr ? "array_typanalyze" : "-");
        v_char(r, 'i'); v_char(r, arr ? 'x' : 'p');
        v_bool(r, false); v_int(r, 0); v_int(r, -1); v_int(r, 0); v_int(r, 0);
        v_nulls(r, 3);
    }
}

static void enum_label_rows(void *ctx, const attu_enum_def *d) {
    rel_text *r = ctx;
    for (int i = 0; i < d->n; i++) {
        v_int(r, (int64_t)ATTU_ENUM_OID_BASE * 100 + (int64_t)d->id * 1000 + i); v_int(r, attu_enum_oid(d->id));
        v_real(r, d->labels[i].order); v_text(r, d->labels[i].label);
    }
}

static void rows_pg_enum(rel_text *r, const syscat_env *env) {
    attu_enum_each(attu_catalog_comments(env->cat), enum_label_rows, r);
}

/* a domain's row and its array's (engine/domain_type.h): typtype 'd', the
 * base type's layout, typbasetype / typtypmod / typnotnull / typdefault */
static void domain_type_rows(void *ctx, const attu_domain_def *d) {
    const void *const *pair = ctx;
    rel_text *r = (rel_text *)pair[0];
    const syscat_env *env = pair[1];
    /* over a domain: typbasetype is that domain, typtypmod -1 */
    attu_domain_def *up = d->parent ? attu_domain_find_in(attu_catalog_comments(env->cat), d->parent) : NULL;
    const pg_type_row *pt = column_pg_type(d->base);
    int len; bool byval; char align, storage;
    column_layout(d->base, pt, &len, &byval, &align, &storage);
    for (int arr = 0; arr < 2; arr++) {
        char name[80];
        snprintf(name, sizeof name, "%s%s", arr ? "_" : "", d->name);
        v_int(r, arr ? attu_domain_array_oid(d->id) : attu_domain_oid(d->id)); v_text(r, name); v_int(r, OID_PUBLIC);
        v_int(r, OID_USER); v_int(r, arr ? -1 : len); v_bool(r, arr ? false : byval); v_char(r, arr ? 'b' : 'd');
        v_char(r, arr ? 'A' : pt ? pt->category : 'U'); v_bool(r, false); v_bool(r, true); v_char(r, ','); v_int(r, 0);
        v_text(r, arr ? "array_subscript_handler" : "-");
        v_int(r, arr ? attu_domain_oid(d->id) : 0); v_int(r, arr ? 0 : attu_domain_array_oid(d->id));
        char fn[96];
        v_text(r, arr ? "array_in" : "domain_in");
        snprintf(fn, sizeof fn, "%s%s", arr ? "array_" : pt ? pt->typname : "", "out");
        v_text(r, fn);
        v_text(r, arr ? "array_recv" : "domain_recv");
        snprintf(fn, sizeof fn, "%s%s", arr ? "array_" : pt ? pt->typname : "", "send");
        v_text(r, fn);
        v_text(r, "-"); v_text(r, "-"); v_text(r, arr ? "array_typanalyze" : "-");
        v_char(r, arr ? (align == 'd' ? 'd' : 'i') : align); v_char(r, arr ? 'x' : storage);
        v_bool(r, !arr && d->not_null); v_int(r, arr ? 0 : up ? attu_domain_oid(up->id) : attu_type_pg_oid(d->base));
        v_int(r, arr || up ? -1 : syscat_type_modifier(d->base)); v_int(r, 0); v_int(r, column_collation(d->base));
        v_null(r);
        if (!arr && d->dflt) v_text(r, d->dflt); else v_null(r);
        v_null(r);
    }
    attu_domain_def_free(up);
}

/* a domain's CHECKs (contypid the domain) */
static void domain_constraint_rows(void *ctx, const attu_domain_def *d) {
    rel_text *r = ctx;
    for (int k = 0; k < d->n; k++) {
        v_int(r, attu_domain_check_oid(d->id, k)); v_text(r, d->checks[k].name); v_int(r, OID_PUBLIC); v_char(r, 'c');
        v_bool(r, false); v_bool(r, false); v_bool(r, !d->checks[k].not_valid); v_int(r, 0); v_int(r, attu_domain_oid(d->id));
        v_int(r, 0); v_int(r, 0); v_int(r, 0); v_char(r, ' '); v_char(r, ' '); v_char(r, ' '); v_bool(r, true); v_int(r, 0);
        v_bool(r, false); v_null(r); v_null(r); v_null(r);
    }
}

static void rows_pg_type(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < syscat_n_pg_types; i++) {
        for (int arr = 0; arr < 2; arr++) {
            const pg_type_row *p = &syscat_pg_types[i];
            char name[80];
            snprintf(name, sizeof name, "%s%s", arr ? "_" : "", p->typname);
            v_int(r, arr ? p->array : p->oid); v_text(r, name); v_int(r, OID_PG_CATALOG); v_int(r, OID_USER);
            v_int(r, arr ? -1 : p->len); v_bool(r, arr ? false : p->byval); v_char(r, 'b');
            v_char(r, arr ? 'A' : p->category); v_bool(r, arr ? false : p->preferred); v_bool(r, true); v_char(r, ',');
            v_int(r, 0);
            /* typsubscript, then the I/O functions' names (regproc) */
            v_text(r, arr ? "array_subscript_handler" : p->elem ? "raw_array_subscript_handler" : "-");
            v_int(r, arr ? p->oid : p->elem); v_int(r, arr ? 0 : p->array);
            static const char *const io[] = { "in", "out", "recv", "send" };
            for (int k = 0; k < 4; k++) {
                char fn[96];
                snprintf(fn, sizeof fn, "%s%s", arr ? "array_" : p->oid == 1043 ? "varchar" : p->oid == 1042 ? "bpchar" : p->typname,
                         io[k]);
                /* the date and time types' and numeric's have an underscore */
                bool under = !arr && (p->oid == 1082 || p->oid == 1083 || p->oid == 1114 || p->oid == 1184 ||
                                      p->oid == 1266 || p->oid == 1186 || p->oid == 1700);
                if (under) snprintf(fn, sizeof fn, "%s_%s", p->typname, io[k]);
                v_text(r, fn);
            }
            /* typmodin, typmodout: the types with a modifier */
            bool mods = p->oid == 1042 || p->oid == 1043 || p->oid == 1700 || p->oid == 1083 || p->oid == 1114 ||
                        p->oid == 1184 || p->oid == 1186 || p->oid == 1266;
            char mi[64], mo[64];
            snprintf(mi, sizeof mi, "%stypmodin", p->typname);
            snprintf(mo, sizeof mo, "%stypmodout", p->typname);
            v_text(r, mods ? mi : "-"); v_text(r, mods ? mo : "-");   /* an array's: its element's */
            v_text(r, arr ? "array_typanalyze" : "-");
            v_char(r, arr ? (p->align == 'd' ? 'd' : 'i') : p->align); v_char(r, arr ? 'x' : p->storage);
            v_bool(r, false); v_int(r, 0); v_int(r, -1); v_int(r, 0); v_int(r, p->collation);
            v_nulls(r, 3);
        }
    }
    attu_enum_each(attu_catalog_comments(env->cat), enum_type_rows, r);
    const void *pair[2] = { r, env };
    attu_domain_each(attu_catalog_comments(env->cat), domain_type_rows, pair);
}

/* pg_proc: the SQL functions (engine/sql_function.h); the built-in ones
 * are no rows (attu's are no catalog objects) */
static void proc_row(void *ctx, const attu_sql_function *f) {
    rel_text *r = ctx;
    v_int(r, attu_function_oid(f->id)); v_text(r, f->name); v_int(r, OID_PUBLIC); v_int(r, OID_USER);
    v_int(r, 14);   /* prolang: sql's pg_language OID */
    v_real(r, 100); v_real(r, 0);
    v_int(r, f->variadic ? attu_type_pg_oid(attu_type_array_elem(f->arg_types[f->nargs - 1])) : 0);   /* provariadic */
    v_text(r, "-"); v_char(r, 'f'); v_bool(r, false);
    v_bool(r, f->leakproof); v_bool(r, f->strict); v_bool(r, f->retset); v_char(r, f->volatility);
    v_char(r, f->parallel); v_int(r, f->nargs); v_int(r, attu_sql_function_ndefaults(f));
    v_int(r, attu_type_pg_oid(f->ret));
    sbuf b = {0}, names = {0};
    bool named = false;
    /* proargtypes is an oidvector: subscripts from 0 */
    if (f->nargs) syscat_sb_printf(&b, "[0:%d]={", f->nargs - 1);
    else syscat_sb_puts(&b, "{");
    syscat_sb_puts(&names, "{");
    for (int i = 0; i < f->nargs; i++) {
        syscat_sb_printf(&b, "%s%u", i ? "," : "", attu_type_pg_oid(f->arg_types[i]));
        const char *n = f->arg_names[i] ? f->arg_names[i] : "";
        named |= *n != 0;
        syscat_sb_puts(&names, i ? ",\"" : "\"");
        for (const char *p = n; *p; p++) {
            if (*p == '"' || *p == '\\') syscat_sb_puts(&names, "\\");
            syscat_sb_add(&names, p, 1);
        }
        syscat_sb_puts(&names, "\"");
    }
    syscat_sb_puts(&b, "}");
    /* RETURNS TABLE: its columns are OUT-like arguments of mode t, in
     * proallargtypes, proargmodes and proargnames after the inputs */
    sbuf all = {0}, modes = {0};
    if (f->nout || f->variadic) {
        /* (a VARIADIC parameter is mode v; proallargtypes stays NULL
         * where every parameter is an input) */
        syscat_sb_puts(&all, "{");
        syscat_sb_puts(&modes, "{");
        for (int i = 0; i < f->nargs + f->nout; i++) {
            attu_type t = i < f->nargs ? f->arg_types[i] : f->out_types[i - f->nargs];
            syscat_sb_printf(&all, "%s%u", i ? "," : "", attu_type_pg_oid(t));
            syscat_sb_printf(&modes, "%s%c", i ? "," : "",
                             i >= f->nargs ? 't' : f->variadic && i == f->nargs - 1 ? 'v' : 'i');
        }
        for (int i = 0; i < f->nout; i++) {
            syscat_sb_puts(&names, (f->nargs || i) ? ",\"" : "\"");
            syscat_sb_puts(&names, f->out_names[i]);
            syscat_sb_puts(&names, "\"");
        }
        named = true;
        syscat_sb_puts(&all, "}");
        syscat_sb_puts(&modes, "}");
    }
    syscat_sb_puts(&names, "}");
    v_text(r, b.oom ? NULL : b.p);
    v_text(r, f->nout && !all.oom ? all.p : NULL);
    v_text(r, (f->nout || f->variadic) && !modes.oom ? modes.p : NULL);
    free(all.p);
    free(modes.p);
    v_text(r, named && !names.oom ? names.p : NULL);
    v_null(r); v_null(r);
    /* a RETURN body is no source text: prosrc '' and the body in
     * prosqlbody (PostgreSQL's is its node tree; attu's the SQL) */
    v_text(r, f->sql_body ? "" : f->body);
    v_null(r);
    v_text(r, f->sql_body ? f->body : NULL);
    v_nulls(r, 2);
    free(b.p);
    free(names.p);
}

static void rows_pg_language(rel_text *r, const syscat_env *env) {
    (void)env;
    for (size_t i = 0; i < sizeof builtin_languages / sizeof *builtin_languages; i++) {
        v_int(r, builtin_languages[i].oid); v_text(r, builtin_languages[i].name); v_int(r, OID_USER); v_bool(r, false);
        v_bool(r, builtin_languages[i].trusted); v_int(r, 0); v_int(r, 0); v_int(r, builtin_languages[i].validator);
        v_null(r);
    }
}

static void rows_pg_proc(rel_text *r, const syscat_env *env) {
    attu_sql_function_each(attu_catalog_comments(env->cat), proc_row, r);
}

static void rows_pg_database(rel_text *r, const syscat_env *env) {
    v_int(r, OID_DATABASE); v_text(r, env->database); v_int(r, OID_USER); v_int(r, 6); v_char(r, 'c');
    v_bool(r, false); v_bool(r, true); v_int(r, -1); v_int(r, 0); v_int(r, 1); v_int(r, 1663);
    v_text(r, "C"); v_text(r, "C"); v_nulls(r, 3);
}

/* The roles (engine/role.h): the bootstrap superuser, OID 10, named as
 * this session has it (env->user), then every created role. */
static void role_valid_until(rel_text *r, const attu_role *ro) {
    if (!ro->has_valid_until) { v_null(r); return; }
    char when[80];
    attu_timestamptz_format(ro->valid_until, NULL, when, sizeof when);
    v_text(r, when);
}
static void pg_roles_row(void *ctx, const attu_role *ro) {
    rel_text *r = ctx;
    v_text(r, ro->name); v_bool(r, ro->super); v_bool(r, ro->inherit); v_bool(r, ro->createrole);
    v_bool(r, ro->createdb); v_bool(r, ro->login); v_bool(r, ro->replication); v_int(r, ro->connlimit);
    v_text(r, "********"); role_valid_until(r, ro); v_bool(r, ro->bypassrls); v_null(r); v_int(r, ro->oid);
}
static void rows_pg_roles(rel_text *r, const syscat_env *env) {
    v_text(r, env->user);
    for (int i = 0; i < 5; i++) v_bool(r, true);
    v_bool(r, false); v_int(r, -1); v_text(r, "********"); v_null(r); v_bool(r, false); v_null(r); v_int(r, OID_USER);
    attu_role_each(attu_catalog_comments(env->cat), pg_roles_row, r);
}

static void pg_authid_row(void *ctx, const attu_role *ro) {
    rel_text *r = ctx;
    v_int(r, ro->oid); v_text(r, ro->name); v_bool(r, ro->super); v_bool(r, ro->inherit); v_bool(r, ro->createrole);
    v_bool(r, ro->createdb); v_bool(r, ro->login); v_bool(r, ro->replication); v_bool(r, ro->bypassrls);
    v_int(r, ro->connlimit);
    if (ro->password) v_text(r, ro->password);
    else v_null(r);
    role_valid_until(r, ro);
}
static void rows_pg_authid(rel_text *r, const syscat_env *env) {
    v_int(r, OID_USER); v_text(r, env->user);
    for (int i = 0; i < 5; i++) v_bool(r, true);
    v_bool(r, false); v_bool(r, false); v_int(r, -1); v_null(r); v_null(r);
    attu_role_each(attu_catalog_comments(env->cat), pg_authid_row, r);
}

static void pg_user_row(void *ctx, const attu_role *ro) {
    rel_text *r = ctx;
    if (!ro->login) return;
    v_text(r, ro->name); v_int(r, ro->oid); v_bool(r, ro->createdb); v_bool(r, ro->super); v_bool(r, ro->replication);
    v_bool(r, ro->bypassrls); v_text(r, "********"); role_valid_until(r, ro); v_null(r);
}
static void rows_pg_user(rel_text *r, const syscat_env *env) {
    v_text(r, env->user); v_int(r, OID_USER); v_bool(r, true); v_bool(r, true); v_bool(r, false); v_bool(r, false);
    v_text(r, "********"); v_null(r); v_null(r);
    attu_role_each(attu_catalog_comments(env->cat), pg_user_row, r);
}

static void pg_auth_members_row(void *ctx, const attu_role_member *m) {
    rel_text *r = ctx;
    v_int(r, m->role); v_int(r, m->member); v_int(r, m->grantor); v_bool(r, m->admin);
}
static void rows_pg_auth_members(rel_text *r, const syscat_env *env) {
    attu_role_member_each(attu_catalog_comments(env->cat), pg_auth_members_row, r);
}

static void rows_pg_am(rel_text *r, const syscat_env *env) {
    (void)env;
    v_int(r, OID_HEAP_AM); v_text(r, "heap"); v_text(r, "heap_tableam_handler"); v_char(r, 't');
    /* the index methods CREATE INDEX ... USING takes (db/db_index.c) */
    static const struct { int oid; const char *name, *handler; } am[] = {
        { 403, "btree", "bthandler" }, { 405, "hash", "hashhandler" }, { 783, "gist", "gisthandler" },
        { 2742, "gin", "ginhandler" }, { 4000, "spgist", "spghandler" }, { 3580, "brin", "brinhandler" },
    };
    for (size_t i = 0; i < sizeof am / sizeof *am; i++) {
        v_int(r, am[i].oid); v_text(r, am[i].name); v_text(r, am[i].handler); v_char(r, 'i');
    }
}

static void rows_pg_collation(rel_text *r, const syscat_env *env) {
    (void)env;
    static const struct { int oid; const char *name; char prov; int enc; const char *cc; } co[] = {
        { 100, "default", 'd', -1, NULL }, { 950, "C", 'c', -1, "C" }, { 951, "POSIX", 'c', -1, "POSIX" },
    };
    for (size_t i = 0; i < sizeof co / sizeof co[0]; i++) {
        v_int(r, co[i].oid); v_text(r, co[i].name); v_int(r, OID_PG_CATALOG); v_int(r, OID_USER); v_char(r, co[i].prov);
        v_bool(r, true); v_int(r, co[i].enc); v_text(r, co[i].cc); v_text(r, co[i].cc); v_null(r); v_null(r);
    }
}

/* A time (microseconds since 1970) as timestamptz text in UTC. */
static const char *utc_text(int64_t us, char *when, size_t cap) {
    time_t secs = (time_t)(us >= 0 ? us / 1000000 : -((-us + 999999) / 1000000));
    int64_t frac = us - (int64_t)secs * 1000000;
    struct tm tm;
    gmtime_r(&secs, &tm);
    snprintf(when, cap, "%04d-%02d-%02d %02d:%02d:%02d.%06lld+00", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long long)frac);
    return when;
}

/* pg_cursors: the session's open SQL cursors (db/db_cursor.c), oldest
 * first; creation_time written in UTC. */
static void rows_pg_cursors(rel_text *r, const syscat_env *env) {
    const attu_bind_params *bp = env->params;
    if (!bp || !bp->cursor_at) return;
    attu_cursor_info ci;
    for (int i = 0; bp->cursor_at(bp->setting_ctx, i, &ci); i++) {
        char when[64];
        utc_text(ci.creation_time_us, when, sizeof when);
        v_text(r, ci.name);
        v_text(r, ci.statement);
        v_bool(r, ci.is_holdable);
        v_bool(r, ci.is_binary);
        v_bool(r, ci.is_scrollable);
        v_text(r, when);
    }
}

/* pg_prepared_statements: the session's named prepared statements (SQL
 * PREPARE and the protocol's named Parse; psycopg 3's _pg3_N ones);
 * prepare_time in UTC. parameter_types is text[] of the types' names
 * (attu has no regtype[]; the same text as PostgreSQL's output). attu
 * binds every execution anew: generic_plans 0, custom_plans 0 (not
 * counted). */
static void rows_pg_prepared_statements(rel_text *r, const syscat_env *env) {
    const attu_bind_params *bp = env->params;
    if (!bp || !bp->prepared_at) return;
    attu_prepared_info pi;
    for (int i = 0; bp->prepared_at(bp->setting_ctx, i, &pi); i++) {
        char when[64];
        sbuf a = {0};
        syscat_sb_puts(&a, "{");
        for (int k = 0; k < pi.nparams; k++) {
            /* a type's name, an array's as its element's with [], an
             * unknown one's (0) "unknown", another (an enum's) its OID */
            int oid = (int)pi.param_oids[k];
            const pg_type_row *t = pg_type_by_oid(oid), *e = pg_type_array_elem(oid);
            char name[96];
            if (t) snprintf(name, sizeof name, "%s", t->format);
            else if (e) snprintf(name, sizeof name, "%s[]", e->format);
            else if (oid) snprintf(name, sizeof name, "%d", oid);
            else snprintf(name, sizeof name, "unknown");
            syscat_sb_printf(&a, strchr(name, ' ') ? "%s\"%s\"" : "%s%s", k ? "," : "", name);
        }
        syscat_sb_puts(&a, "}");
        if (a.oom) r->b.oom = true;
        v_text(r, pi.name);
        v_text(r, pi.statement);
        v_text(r, utc_text(pi.prepare_time_us, when, sizeof when));
        v_text(r, a.p ? a.p : "{}");
        v_bool(r, pi.from_sql);
        v_int(r, 0);
        v_int(r, 0);
        free(a.p);
    }
}

/* pg_stat_activity: one row per session of the db (db/db_activity.c),
 * every one a client backend (attu has no background processes to
 * show); client_addr as text. */
static void activity_row(void *rctx, const attu_activity_info *a) {
    rel_text *r = rctx;
    char t[64];
    v_int(r, OID_DATABASE); v_text(r, a->database); v_int(r, a->pid); v_null(r);
    v_int(r, OID_USER); v_text(r, a->user); v_text(r, a->application_name);
    v_text(r, a->client_addr); v_null(r);
    if (a->client_port >= 0) v_int(r, a->client_port); else v_null(r);
    v_text(r, utc_text(a->backend_start_us, t, sizeof t));
    if (a->xact_start_us) v_text(r, utc_text(a->xact_start_us, t, sizeof t)); else v_null(r);
    if (a->query_start_us) v_text(r, utc_text(a->query_start_us, t, sizeof t)); else v_null(r);
    v_text(r, utc_text(a->state_change_us, t, sizeof t));
    v_text(r, a->wait_event_type); v_text(r, a->wait_event);
    v_text(r, a->state);
    v_nulls(r, 3);   /* backend_xid, backend_xmin, query_id: attu has no xids, compute_query_id is off */
    v_text(r, a->query); v_text(r, "client backend");
}

static void rows_pg_stat_activity(rel_text *r, const syscat_env *env) {
    const attu_bind_params *bp = env->params;
    if (bp && bp->activity) bp->activity(bp->setting_ctx, activity_row, r);
}

/* pg_locks: a row per table lock held or awaited (db/db_lock.c),
 * relation the table's OID as pg_class has it; attu has no transaction
 * ids, so virtualtransaction is the session's "pid/1" and the other
 * objects' columns NULL. */
typedef struct locks_ctx { rel_text *r; const syscat_env *env; } locks_ctx;
static void lock_row(void *rctx, const attu_lock_info *l) {
    locks_ctx *c = rctx;
    rel_text *r = c->r;
    int64_t oid = 0;
    for (size_t i = 0; i < c->env->rs.n && !oid; i++)
        if (c->env->rs.r[i].kind != 'i' && !strcmp(c->env->rs.r[i].name, l->table)) oid = c->env->rs.r[i].oid;
    char vt[32];
    snprintf(vt, sizeof vt, "%u/1", l->pid);
    v_text(r, "relation"); v_int(r, OID_DATABASE);
    if (oid) v_int(r, oid); else v_null(r);
    v_nulls(r, 7);   /* page, tuple, virtualxid, transactionid, classid, objid, objsubid */
    v_text(r, vt); v_int(r, l->pid); v_text(r, l->mode); v_bool(r, l->granted); v_bool(r, false);
    v_null(r);   /* waitstart */
}
static void rows_pg_locks(rel_text *r, const syscat_env *env) {
    const attu_bind_params *bp = env->params;
    locks_ctx c = { r, env };
    if (bp && bp->locks) bp->locks(bp->setting_ctx, lock_row, &c);
}

/* pg_stat_database: the one database's row, numbers attu does not keep
 * as 0; numbackends counted from the sessions. */
static void count_session(void *rctx, const attu_activity_info *a) { (void)a; (*(int *)rctx)++; }
static void rows_pg_stat_database(rel_text *r, const syscat_env *env) {
    const attu_bind_params *bp = env->params;
    int n = 0;
    if (bp && bp->activity) bp->activity(bp->setting_ctx, count_session, &n);
    v_int(r, OID_DATABASE); v_text(r, env->database); v_int(r, n);
    for (int i = 0; i < 13; i++) v_int(r, 0);
    v_null(r); v_null(r);   /* checksum_failures, checksum_last_failure */
    for (int i = 0; i < 2; i++) v_real(r, 0);
    for (int i = 0; i < 3; i++) v_real(r, 0);
    for (int i = 0; i < 4; i++) v_int(r, 0);
    v_null(r);   /* stats_reset */
}

static void rows_pg_tablespace(rel_text *r, const syscat_env *env) {
    (void)env;
    v_int(r, 1663); v_text(r, "pg_default"); v_int(r, OID_USER); v_null(r); v_null(r);
    v_int(r, 1664); v_text(r, "pg_global"); v_int(r, OID_USER); v_null(r); v_null(r);
}

/* pg_settings: the settings attu has (setting_catalog.h), with the
 * session's values; hidden ones and an application's dotted names are
 * left out, as PostgreSQL leaves out its placeholders. */
static void rows_pg_settings(rel_text *r, const syscat_env *env) {
    const attu_bind_params *bp = env->params;
    for (size_t i = 0; i < attu_nsettings; i++) {
        const attu_setting_def *d = &attu_settings[i];
        if (d->hidden) continue;
        char lower[64], raw[32], rraw[32], num[32];
        size_t k = 0;
        for (; d->name[k] && k + 1 < sizeof lower; k++) lower[k] = (char)((d->name[k] >= 'A' && d->name[k] <= 'Z') ? d->name[k] - 'A' + 'a' : d->name[k]);
        lower[k] = 0;
        const char *source = "default", *reset = d->value;
        const char *v = bp && bp->setting_state ? bp->setting_state(bp->setting_ctx, lower, &source, &reset) : d->value;
        if (!v) v = d->value;
        if (!reset) reset = d->value;
        v_text(r, d->name);
        v_text(r, attu_setting_raw(d, v, raw, sizeof raw));
        v_text(r, d->unit);
        v_text(r, d->category);
        v_text(r, d->short_desc);
        v_text(r, d->extra_desc);
        v_text(r, d->context);
        v_text(r, attu_setting_type_name(d->type));
        v_text(r, source);
        if (d->type == ATTU_SETTING_INTEGER) {
            snprintf(num, sizeof num, "%lld", (long long)d->min); v_text(r, num);
            snprintf(num, sizeof num, "%lld", (long long)d->max); v_text(r, num);
        } else v_nulls(r, 2);
        if (d->type == ATTU_SETTING_ENUM) {
            /* the array's text: a value with a space quoted */
            sbuf a = {0};
            syscat_sb_puts(&a, "{");
            for (const char *p = d->enumvals; *p;) {
                const char *e = strchr(p, ',');
                size_t len = e ? (size_t)(e - p) : strlen(p);
                bool quote = memchr(p, ' ', len) != NULL;
                syscat_sb_printf(&a, "%s%s%.*s%s", p == d->enumvals ? "" : ",", quote ? "\"" : "", (int)len, p, quote ? "\"" : "");
                p += len + (e ? 1 : 0);
            }
            syscat_sb_puts(&a, "}");
            if (a.oom) r->b.oom = true;
            v_text(r, a.p ? a.p : "{}");
            free(a.p);
        } else v_null(r);
        char braw[32];
        const char *boot = attu_setting_boot(d);
        v_text(r, boot ? attu_setting_raw(d, boot, braw, sizeof braw) : NULL);
        v_text(r, attu_setting_raw(d, reset, rraw, sizeof rraw));
        v_nulls(r, 2);   /* sourcefile, sourceline: no configuration file */
        v_bool(r, false);
    }
}

static void rows_pg_tables(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        if (env->rs.r[i].kind != 'r') continue;
        int nu, nix;
        attu_catalog_uniques(env->cat, env->rs.r[i].name, &nu);
        attu_catalog_indexes(env->cat, env->rs.r[i].name, &nix);
        nu += nix;
        v_text(r, rel_ns(env, &env->rs.r[i])); v_text(r, env->rs.r[i].name); v_text(r, env->user); v_null(r);
        v_bool(r, nu > 0); v_bool(r, false); v_bool(r, syscat_fkey_triggers(env->cat, env->rs.r[i].name)); v_bool(r, false);
    }
}

static void rows_is_tables(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'r' && ri->kind != 'v') continue;
        v_text(r, env->database); v_text(r, rel_ns(env, ri)); v_text(r, ri->name);
        v_text(r, ri->temp ? "LOCAL TEMPORARY" : ri->kind == 'r' ? "BASE TABLE" : "VIEW");
        v_nulls(r, 5); v_text(r, ri->kind == 'r' || view_updatable(env, ri->v, NULL) ? "YES" : "NO"); v_text(r, "NO"); v_null(r);
    }
}

/* v[0, n) + add as an array constant's text ("{1,3}"); vector: as PostgreSQL's int2vector /
 * oidvector, subscripted from 0 ('[0:n-1]={...}': indkey[0] is the first
 * key column) */
static const char *int_array(const int *v, int n, int add, bool vector, char *buf, size_t cap) {
    size_t k = vector && n > 0 ? (size_t)snprintf(buf, cap, "[0:%d]={", n - 1) : (size_t)snprintf(buf, cap, "{");
    for (int i = 0; i < n && k < cap; i++) k += (size_t)snprintf(buf + k, cap - k, "%s%d", i ? "," : "", v[i] + add);
    if (k < cap) snprintf(buf + k, cap - k, "}");
    return buf;
}

/* the btree operator class PostgreSQL gives a key column of type t (0
 * where attu's type has none of its own) */
static int index_opclass(attu_type t) {
    switch (attu_type_pg_oid(t)) {
    case 16: return 424; case 20: return 3124; case 21: return 1979; case 23: return 1978; case 25: case 1043: return 3126;
    case 700: return 1970; case 701: return 3123; case 1042: return 426; case 1082: return 3122; case 1083: return 1996;
    case 1114: return 3128; case 1184: return 3127; case 1186: return 1982; case 1266: return 2222; case 1700: return 3125;
    default: return 0;
    }
}

/* pg_index's row of a CREATE INDEX index: indoption's bits are
 * PostgreSQL's (1 DESC, 2 NULLS FIRST, which DESC implies unless NULLS
 * LAST is written), an expression's indkey 0 */
static void index_row(rel_text *r, const rel_info *ri) {
    const attu_index_def *ix = ri->ix;
    int key[ATTU_INDEX_MAX_KEYS], coll[ATTU_INDEX_MAX_KEYS], cls[ATTU_INDEX_MAX_KEYS], opt[ATTU_INDEX_MAX_KEYS];
    for (int k = 0; k < ix->ncols; k++) {
        attu_type ty = ix->cols[k] >= 0 ? ri->t->defs[ix->cols[k]].type : attu_type_make(ATTU_TYPE_INT64);
        key[k] = ix->cols[k] + 1;
        coll[k] = ix->cols[k] >= 0 ? column_collation(ty) : 0;
        cls[k] = ix->cols[k] >= 0 ? index_opclass(ty) : 0;
        bool desc = ix->order[k] & ATTU_INDEX_DESC;
        bool first = (ix->order[k] & ATTU_INDEX_NULLS_FIRST) || (desc && !(ix->order[k] & ATTU_INDEX_NULLS_LAST));
        opt[k] = (desc ? 1 : 0) | (first ? 2 : 0);
    }
    char buf[512];
    v_int(r, ri->oid); v_int(r, ri->table_oid); v_int(r, ix->ncols); v_int(r, ix->nkeys);
    v_bool(r, ix->unique); v_bool(r, ix->nulls_not_distinct); v_bool(r, false); v_bool(r, false); v_bool(r, true);
    v_bool(r, false); v_bool(r, true); v_bool(r, false); v_bool(r, true); v_bool(r, true); v_bool(r, false);
    v_text(r, int_array(key, ix->ncols, 0, true, buf, sizeof buf));
    v_text(r, int_array(coll, ix->nkeys, 0, true, buf, sizeof buf));
    v_text(r, int_array(cls, ix->nkeys, 0, true, buf, sizeof buf));
    v_text(r, int_array(opt, ix->nkeys, 0, true, buf, sizeof buf));
    sbuf e = {0};
    for (int k = 0; k < ix->ncols; k++)
        if (ix->cols[k] < 0) { if (e.p) syscat_sb_puts(&e, " "); syscat_sb_puts(&e, ix->expr[k]); }
    if (e.oom) r->b.oom = true;
    v_text(r, e.p);
    free(e.p);
    v_text(r, ix->where);
}

static void rows_pg_index(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'i') continue;
        if (ri->ix) { index_row(r, ri); continue; }
        const attu_unique *u = ri->u;
        int coll[ATTU_INDEX_MAX_KEYS], cls[ATTU_INDEX_MAX_KEYS], zero[ATTU_INDEX_MAX_KEYS] = { 0 };
        for (int k = 0; k < u->ncols; k++) {
            coll[k] = column_collation(ri->t->defs[u->cols[k]].type);
            cls[k] = index_opclass(ri->t->defs[u->cols[k]].type);
        }
        char buf[512];
        v_int(r, ri->oid); v_int(r, ri->table_oid); v_int(r, u->ncols); v_int(r, u->ncols);
        v_bool(r, true); v_bool(r, false); v_bool(r, u->primary); v_bool(r, false); v_bool(r, !u->deferrable);
        v_bool(r, false); v_bool(r, true); v_bool(r, false); v_bool(r, true); v_bool(r, true); v_bool(r, false);
        v_text(r, int_array(u->cols, u->ncols, 1, true, buf, sizeof buf));
        v_text(r, int_array(coll, u->ncols, 0, true, buf, sizeof buf));
        v_text(r, int_array(cls, u->ncols, 0, true, buf, sizeof buf));
        v_text(r, int_array(zero, u->ncols, 0, true, buf, sizeof buf));
        v_nulls(r, 2);
    }
}

/* The columns of t that check c uses (0-based, at most
 * ATTU_INDEX_MAX_KEYS), in the order the expression first names them, as
 * PostgreSQL's conkey: the offset of a column's first token is where
 * renaming it to a marker puts the marker. */
static int check_columns(const attu_table *t, const attu_check *c, int *cols) {
    int ncols = 0;
    size_t at[ATTU_INDEX_MAX_KEYS];
    for (int j = 0; j < t->ncols && ncols < ATTU_INDEX_MAX_KEYS; j++) {
        int count = 0;
        attu_error e;
        attu_error_clear(&e);
        char *m = attu_sql_rename_column(c->expr, t->defs[j].name, "\001", &count, &e);
        const char *p = m && count ? strstr(m, "\"\001\"") : NULL;
        if (p) {
            int x = ncols++;
            while (x > 0 && at[x - 1] > (size_t)(p - m)) { at[x] = at[x - 1]; cols[x] = cols[x - 1]; x--; }
            at[x] = (size_t)(p - m);
            cols[x] = j;
        }
        free(m);
    }
    return ncols;
}

static void rows_pg_constraint(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'i' || ri->ix) continue;
        char buf[512];
        v_int(r, syscat_constraint_oid(ri)); v_text(r, ri->name); v_int(r, rel_ns_oid(env, ri)); v_char(r, ri->u->primary ? 'p' : 'u');
        v_bool(r, ri->u->deferrable); v_bool(r, ri->u->initially_deferred); v_bool(r, true); v_int(r, ri->table_oid); v_int(r, 0); v_int(r, ri->oid);
        v_int(r, 0); v_int(r, 0); v_char(r, ' '); v_char(r, ' '); v_char(r, ' '); v_bool(r, true); v_int(r, 0);
        v_bool(r, true); v_text(r, int_array(ri->u->cols, ri->u->ncols, 1, false, buf, sizeof buf)); v_nulls(r, 2);
    }
    /* the CHECK constraints (contype 'c'), conkey the columns they use */
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'r') continue;
        int nc = 0;
        const attu_check *cs = attu_catalog_checks(env->cat, ri->t->name, &nc);
        for (int k = 0; k < nc; k++) {
            int cols[ATTU_INDEX_MAX_KEYS];
            int ncols = check_columns(ri->t, &cs[k], cols);
            char buf[512];
            v_int(r, syscat_check_oid(ri->t->name, cs[k].name)); v_text(r, cs[k].name); v_int(r, OID_PUBLIC); v_char(r, 'c');
            v_bool(r, false); v_bool(r, false); v_bool(r, !cs[k].not_valid); v_int(r, ri->oid); v_int(r, 0); v_int(r, 0);
            v_int(r, 0); v_int(r, 0); v_char(r, ' '); v_char(r, ' '); v_char(r, ' '); v_bool(r, true); v_int(r, 0);
            v_bool(r, false);
            if (ncols) v_text(r, int_array(cols, ncols, 1, false, buf, sizeof buf));
            else v_null(r);
            v_nulls(r, 2);
        }
    }
    /* the FOREIGN KEYs (contype 'f'), conindid the referenced key's index */
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'r') continue;
        int nf = 0;
        const attu_fkey *fs = attu_catalog_fkeys(env->cat, ri->t->name, &nf);
        for (int k = 0; k < nf; k++) {
            const rel_info *p = syscat_rel_find(&env->rs, fs[k].ref_table), *ix = syscat_fkey_index(&env->rs, &fs[k]);
            char buf[512];
            v_int(r, syscat_fkey_oid(ri->t->name, fs[k].name)); v_text(r, fs[k].name); v_int(r, OID_PUBLIC); v_char(r, 'f');
            v_bool(r, fs[k].deferrable); v_bool(r, fs[k].initially_deferred); v_bool(r, !fs[k].not_valid); v_int(r, ri->oid); v_int(r, 0); v_int(r, ix ? ix->oid : 0);
            v_int(r, 0); v_int(r, p ? p->oid : 0); v_char(r, fs[k].on_update); v_char(r, fs[k].on_delete);
            v_char(r, fs[k].match); v_bool(r, true); v_int(r, 0); v_bool(r, true);
            v_text(r, int_array(fs[k].cols, fs[k].ncols, 1, false, buf, sizeof buf));
            v_text(r, int_array(fs[k].ref_cols, fs[k].ncols, 1, false, buf, sizeof buf));
            v_null(r);
        }
    }
    attu_domain_each(attu_catalog_comments(env->cat), domain_constraint_rows, r);
}

void syscat_index_column(sbuf *d, const rel_info *ri, int k, bool pretty) {
    int c = ri->ix ? ri->ix->cols[k] : ri->u->cols[k];
    if (c >= 0) { syscat_sb_ident(d, ri->t->defs[c].name); return; }
    /* an expression: a function call as written; another in the
     * parentheses the text keeps and, not pretty, the deparser's own */
    const char *e = ri->ix->expr[k];
    if (e[0] == '(' && !pretty) syscat_sb_printf(d, "(%s)", e);
    else syscat_sb_puts(d, e);
}

char *syscat_index_definition(const rel_info *ri, bool qualified) {
    sbuf d = {0};
    if (ri->ix) {
        const attu_index_def *ix = ri->ix;
        syscat_sb_puts(&d, ix->unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ");
        syscat_sb_ident(&d, ri->name);
        syscat_sb_puts(&d, qualified ? " ON public." : " ON ");
        syscat_sb_ident(&d, ri->t->name);
        syscat_sb_printf(&d, " USING %s (", ix->method);
        for (int k = 0; k < ix->nkeys; k++) {
            if (k) syscat_sb_puts(&d, ", ");
            syscat_index_column(&d, ri, k, !qualified);
            if (ix->suffix[k]) syscat_sb_puts(&d, ix->suffix[k]);
            bool desc = ix->order[k] & ATTU_INDEX_DESC;
            if (desc) syscat_sb_puts(&d, " DESC");
            /* (the NULLS that is not the ordering's default) */
            if (desc && (ix->order[k] & ATTU_INDEX_NULLS_LAST)) syscat_sb_puts(&d, " NULLS LAST");
            if (!desc && (ix->order[k] & ATTU_INDEX_NULLS_FIRST)) syscat_sb_puts(&d, " NULLS FIRST");
        }
        syscat_sb_puts(&d, ")");
        if (ix->ncols > ix->nkeys) {
            syscat_sb_puts(&d, " INCLUDE (");
            for (int k = ix->nkeys; k < ix->ncols; k++) {
                if (k > ix->nkeys) syscat_sb_puts(&d, ", ");
                syscat_index_column(&d, ri, k, !qualified);
            }
            syscat_sb_puts(&d, ")");
        }
        if (ix->nulls_not_distinct) syscat_sb_puts(&d, " NULLS NOT DISTINCT");
        if (ix->options) syscat_sb_printf(&d, " WITH (%s)", ix->options);
        if (ix->where) syscat_sb_printf(&d, qualified ? " WHERE (%s)" : " WHERE %s", ix->where);
        if (d.oom) { free(d.p); return NULL; }
        return d.p;
    }
    syscat_sb_puts(&d, "CREATE UNIQUE INDEX ");
    syscat_sb_ident(&d, ri->name);
    syscat_sb_puts(&d, qualified ? " ON public." : " ON ");
    syscat_sb_ident(&d, ri->t->name);
    syscat_sb_puts(&d, " USING btree (");
    for (int k = 0; k < ri->u->ncols; k++) {
        if (k) syscat_sb_puts(&d, ", ");
        syscat_sb_ident(&d, ri->t->defs[ri->u->cols[k]].name);
    }
    syscat_sb_puts(&d, ")");
    if (d.oom) { free(d.p); return NULL; }
    return d.p;
}

static void rows_pg_indexes(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'i') continue;
        char *d = syscat_index_definition(ri, true);
        if (!d) r->b.oom = true;
        v_text(r, rel_ns(env, ri)); v_text(r, ri->t->name); v_text(r, ri->name); v_null(r); v_text(r, d ? d : "");
        free(d);
    }
}

static void rows_is_constraint_column_usage(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'i' || ri->ix) continue;
        for (int k = 0; k < ri->u->ncols; k++) {
            v_text(r, env->database); v_text(r, "public"); v_text(r, ri->t->name); v_text(r, ri->t->defs[ri->u->cols[k]].name);
            v_text(r, env->database); v_text(r, "public"); v_text(r, ri->name);
        }
    }
    /* the columns a CHECK uses */
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'r') continue;
        int nc = 0;
        const attu_check *cs = attu_catalog_checks(env->cat, ri->t->name, &nc);
        for (int k = 0; k < nc; k++) {
            int cols[ATTU_INDEX_MAX_KEYS];
            int ncols = check_columns(ri->t, &cs[k], cols);
            for (int j = 0; j < ncols; j++) {
                v_text(r, env->database); v_text(r, "public"); v_text(r, ri->t->name); v_text(r, ri->t->defs[cols[j]].name);
                v_text(r, env->database); v_text(r, "public"); v_text(r, cs[k].name);
            }
        }
    }
    /* a FOREIGN KEY: the referenced columns */
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'r') continue;
        int nf = 0;
        const attu_fkey *fs = attu_catalog_fkeys(env->cat, ri->t->name, &nf);
        for (int k = 0; k < nf; k++) {
            const rel_info *p = syscat_rel_find(&env->rs, fs[k].ref_table);
            for (int j = 0; p && p->kind == 'r' && j < fs[k].ncols; j++) {
                v_text(r, env->database); v_text(r, "public"); v_text(r, p->t->name);
                v_text(r, p->t->defs[fs[k].ref_cols[j]].name);
                v_text(r, env->database); v_text(r, "public"); v_text(r, fs[k].name);
            }
        }
    }
}

/* A view's definition as pg_get_viewdef gives it: PostgreSQL deparses the
 * query; attu keeps it as written, shown with the deparser's leading
 * space and closing semicolon. malloc'd (NULL: out of memory). */
char *syscat_view_definition(const attu_view *v) {
    size_t n = strlen(v->sql);
    char *d = malloc(n + 3);
    if (d) { d[0] = ' '; memcpy(d + 1, v->sql, n); d[n + 1] = ';'; d[n + 2] = 0; }
    return d;
}

static void rows_pg_views(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'v') continue;
        char *d = syscat_view_definition(ri->v);
        if (!d) r->b.oom = true;
        v_text(r, rel_ns(env, ri)); v_text(r, ri->name); v_text(r, env->user); v_text(r, d ? d : "");
        free(d);
    }
}

static void rows_is_views(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'v') continue;
        char *d = syscat_view_definition(ri->v);
        if (!d) r->b.oom = true;
        const char *upd = view_updatable(env, ri->v, NULL) ? "YES" : "NO";
        const char *check = ri->v->check_option == 'l' ? "LOCAL" : ri->v->check_option == 'c' ? "CASCADED" : "NONE";
        v_text(r, env->database); v_text(r, "public"); v_text(r, ri->name); v_text(r, d ? d : ""); v_text(r, check);
        v_text(r, upd); v_text(r, upd); v_text(r, "NO"); v_text(r, "NO"); v_text(r, "NO");
        free(d);
    }
}

/* information_schema.routines: the SQL functions (its columns that
 * describe them; PostgreSQL has more, for other kinds of routine) */
static const char *is_data_type(attu_type t, char *buf, size_t cap);
typedef struct routine_ctx { rel_text *r; const syscat_env *env; } routine_ctx;
static void routine_row(void *ctx, const attu_sql_function *f) {
    routine_ctx *x = ctx;
    rel_text *r = x->r;
    char specific[ATTU_NAME_MAX + 16], buf[96];
    snprintf(specific, sizeof specific, "%s_%u", f->name, attu_function_oid(f->id));
    const pg_type_row *pt = pg_type_by_oid((int)attu_type_pg_oid(f->ret));
    v_text(r, x->env->database); v_text(r, "public"); v_text(r, specific);
    v_text(r, x->env->database); v_text(r, "public"); v_text(r, f->name); v_text(r, "FUNCTION");
    v_text(r, is_data_type(f->ret, buf, sizeof buf)); v_text(r, x->env->database); v_text(r, "pg_catalog");
    v_text(r, pt ? pt->typname : NULL); v_text(r, "SQL"); v_text(r, f->sql_body ? NULL : f->body);
    v_text(r, "SQL"); v_null(r); v_text(r, f->volatility == 'i' ? "YES" : "NO"); v_text(r, "MODIFIES");
    v_text(r, f->strict ? "YES" : "NO"); v_text(r, "INVOKER");
}

static void rows_is_routines(rel_text *r, const syscat_env *env) {
    routine_ctx x = { r, env };
    attu_sql_function_each(attu_catalog_comments(env->cat), routine_row, &x);
}

/* information_schema.parameters: each SQL function's parameters, IN (a
 * VARIADIC one too, as PostgreSQL shows it), then RETURNS TABLE's
 * columns, OUT; no typmods (a function's parameters have none) */
static void parameter_rows(void *ctx, const attu_sql_function *f) {
    routine_ctx *x = ctx;
    rel_text *r = x->r;
    char specific[ATTU_NAME_MAX + 16], buf[96], pos[16];
    snprintf(specific, sizeof specific, "%s_%u", f->name, attu_function_oid(f->id));
    for (int i = 0; i < f->nargs + f->nout; i++) {
        bool in = i < f->nargs;
        attu_type t = in ? f->arg_types[i] : f->out_types[i - f->nargs];
        const char *name = in ? f->arg_names[i] : f->out_names[i - f->nargs];
        bool arr = attu_type_is_array(t);
        const pg_type_row *pt = pg_type_by_oid((int)attu_type_pg_oid(arr ? attu_type_array_elem(t) : t));
        char udt[ATTU_NAME_MAX + 2];
        snprintf(udt, sizeof udt, "%s%s", arr ? "_" : "", pt ? pt->typname : "");   /* (an array's: _ its element's) */
        snprintf(pos, sizeof pos, "%d", i + 1);
        v_text(r, x->env->database); v_text(r, "public"); v_text(r, specific); v_int(r, i + 1);
        v_text(r, in ? "IN" : "OUT"); v_text(r, "NO"); v_text(r, "NO"); v_text(r, name);
        v_text(r, is_data_type(t, buf, sizeof buf));
        v_nulls(r, 14);   /* character_maximum_length .. interval_precision */
        v_text(r, x->env->database); v_text(r, "pg_catalog"); v_text(r, pt ? udt : NULL);
        v_nulls(r, 4);    /* scope_*, maximum_cardinality */
        v_text(r, pos); v_text(r, in ? f->arg_defaults[i] : NULL);
    }
}

static void rows_is_parameters(rel_text *r, const syscat_env *env) {
    routine_ctx x = { r, env };
    attu_sql_function_each(attu_catalog_comments(env->cat), parameter_rows, &x);
}

static void rows_pg_matviews(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'm') continue;
        char *d = syscat_view_definition(ri->v);
        if (!d) r->b.oom = true;
        v_text(r, "public"); v_text(r, ri->name); v_text(r, env->user); v_null(r); v_bool(r, false);
        v_bool(r, ri->v->populated); v_text(r, d ? d : "");
        free(d);
    }
}

static int sequence_type_oid(const attu_sequence *s) {
    return s->type == ATTU_TYPE_INT16 ? 21 : s->type == ATTU_TYPE_INT32 ? 23 : 20;
}

static void rows_pg_sequence(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'S') continue;
        const attu_sequence *s = ri->s;
        v_int(r, ri->oid); v_int(r, sequence_type_oid(s)); v_int(r, s->start); v_int(r, s->increment); v_int(r, s->max);
        v_int(r, s->min); v_int(r, s->cache); v_bool(r, s->cycle);
    }
}

static void rows_pg_sequences(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'S') continue;
        const attu_sequence *s = ri->s;
        v_text(r, rel_ns(env, ri)); v_text(r, ri->name); v_text(r, env->user); v_text(r, attu_sequence_type_name(s->type));
        v_int(r, s->start); v_int(r, s->min); v_int(r, s->max); v_int(r, s->increment); v_bool(r, s->cycle);
        v_int(r, s->cache);
        if (s->is_called) v_int(r, s->last_value); else v_null(r);   /* NULL until a value is drawn */
    }
}

/* information_schema.sequences: every sequence but an identity column's */
static void rows_is_sequences(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'S' || ri->s->identity) continue;
        const attu_sequence *s = ri->s;
        char b[4][24];
        snprintf(b[0], sizeof b[0], "%lld", (long long)s->start);
        snprintf(b[1], sizeof b[1], "%lld", (long long)s->min);
        snprintf(b[2], sizeof b[2], "%lld", (long long)s->max);
        snprintf(b[3], sizeof b[3], "%lld", (long long)s->increment);
        v_text(r, env->database); v_text(r, rel_ns(env, ri)); v_text(r, ri->name); v_text(r, attu_sequence_type_name(s->type));
        v_int(r, s->type == ATTU_TYPE_INT16 ? 16 : s->type == ATTU_TYPE_INT32 ? 32 : 64); v_int(r, 2); v_int(r, 0);
        for (int k = 0; k < 4; k++) v_text(r, b[k]);
        v_text(r, s->cycle ? "YES" : "NO");
    }
}

/* A serial or identity column's sequence depends on its column ('a',
 * 'i'): what psql's \d SEQUENCE reads for "Owned by". */
static void rows_pg_depend(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'S' || !ri->s->owner_table || !ri->s->owner_column) continue;
        const rel_info *t = syscat_rel_find(&env->rs, ri->s->owner_table);
        int col = t && t->kind == 'r' ? attu_table_find_column(t->t, ri->s->owner_column) : -1;
        if (col < 0) continue;
        v_int(r, SYSCAT_OID_PG_CLASS); v_int(r, ri->oid); v_int(r, 0); v_int(r, SYSCAT_OID_PG_CLASS); v_int(r, t->oid);
        v_int(r, col + 1);
        v_char(r, ri->s->identity ? 'i' : 'a');
    }
}

/* PRIMARY KEY and UNIQUE, then PostgreSQL's NOT NULL checks of the
 * tables' columns (named schema-OID_table-OID_attnum_not_null) */
static void rows_is_table_constraints(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'i' || ri->ix) continue;
        v_text(r, env->database); v_text(r, "public"); v_text(r, ri->name); v_text(r, env->database);
        v_text(r, "public"); v_text(r, ri->t->name); v_text(r, ri->u->primary ? "PRIMARY KEY" : "UNIQUE");
        v_text(r, ri->u->deferrable ? "YES" : "NO"); v_text(r, ri->u->initially_deferred ? "YES" : "NO"); v_text(r, "YES"); v_text(r, ri->u->primary ? NULL : "YES");
    }
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'r') continue;
        for (int k = 0; k < ri->t->ncols; k++) {
            if (!ri->t->defs[k].not_null) continue;
            char name[64];
            snprintf(name, sizeof name, "%d_%lld_%d_not_null", OID_PUBLIC, (long long)ri->oid, k + 1);
            v_text(r, env->database); v_text(r, "public"); v_text(r, name); v_text(r, env->database);
            v_text(r, "public"); v_text(r, ri->name); v_text(r, "CHECK");
            v_text(r, "NO"); v_text(r, "NO"); v_text(r, "YES"); v_null(r);
        }
    }
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'r') continue;
        int nc = 0;
        const attu_check *cs = attu_catalog_checks(env->cat, ri->t->name, &nc);
        for (int k = 0; k < nc; k++) {
            v_text(r, env->database); v_text(r, "public"); v_text(r, cs[k].name); v_text(r, env->database);
            v_text(r, "public"); v_text(r, ri->name); v_text(r, "CHECK");
            v_text(r, "NO"); v_text(r, "NO"); v_text(r, "YES"); v_null(r);
        }
        const attu_fkey *fs = attu_catalog_fkeys(env->cat, ri->t->name, &nc);
        for (int k = 0; k < nc; k++) {
            v_text(r, env->database); v_text(r, "public"); v_text(r, fs[k].name); v_text(r, env->database);
            v_text(r, "public"); v_text(r, ri->name); v_text(r, "FOREIGN KEY");
            v_text(r, fs[k].deferrable ? "YES" : "NO"); v_text(r, fs[k].initially_deferred ? "YES" : "NO");
            v_text(r, "YES"); v_null(r);
        }
    }
}

/* a FOREIGN KEY: the referenced key's constraint, the match and rules */
static void rows_is_referential_constraints(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'r') continue;
        int nf = 0;
        const attu_fkey *fs = attu_catalog_fkeys(env->cat, ri->t->name, &nf);
        for (int k = 0; k < nf; k++) {
            const rel_info *ix = syscat_fkey_index(&env->rs, &fs[k]);
            v_text(r, env->database); v_text(r, "public"); v_text(r, fs[k].name);
            v_text(r, ix ? env->database : NULL); v_text(r, ix ? "public" : NULL); v_text(r, ix ? ix->name : NULL);
            v_text(r, fs[k].match == 'f' ? "FULL" : "NONE");
            v_text(r, syscat_fkey_action(fs[k].on_update)); v_text(r, syscat_fkey_action(fs[k].on_delete));
        }
    }
}

static void rows_is_key_column_usage(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'i' || ri->ix) continue;
        for (int k = 0; k < ri->u->ncols; k++) {
            v_text(r, env->database); v_text(r, "public"); v_text(r, ri->name); v_text(r, env->database);
            v_text(r, "public"); v_text(r, ri->t->name); v_text(r, ri->t->defs[ri->u->cols[k]].name); v_int(r, k + 1);
            v_null(r);
        }
    }
    /* a FOREIGN KEY's columns, each with its place in the referenced key */
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind != 'r') continue;
        int nf = 0;
        const attu_fkey *fs = attu_catalog_fkeys(env->cat, ri->t->name, &nf);
        for (int k = 0; k < nf; k++) {
            const rel_info *ix = syscat_fkey_index(&env->rs, &fs[k]);
            for (int j = 0; j < fs[k].ncols; j++) {
                int at = 0;
                for (int q = 0; ix && q < ix->u->ncols; q++) if (ix->u->cols[q] == fs[k].ref_cols[j]) at = q + 1;
                v_text(r, env->database); v_text(r, "public"); v_text(r, fs[k].name); v_text(r, env->database);
                v_text(r, "public"); v_text(r, ri->t->name); v_text(r, ri->t->defs[fs[k].cols[j]].name); v_int(r, j + 1);
                if (at) v_int(r, at);
                else v_null(r);
            }
        }
    }
}

static void rows_is_schemata(rel_text *r, const syscat_env *env) {
    static const char *const names[] = { "pg_toast", "pg_catalog", "public", "information_schema" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        v_text(r, env->database); v_text(r, names[i]);
        v_text(r, !strcmp(names[i], "public") ? "pg_database_owner" : env->user);
        v_nulls(r, 4);
    }
}

/* information_schema.columns' data_type: format_type without modifiers,
 * "ARRAY" for an array */
static const char *is_data_type(attu_type t, char *buf, size_t cap) {
    if (attu_type_is_array(t)) return "ARRAY";
    if (attu_type_is_enum(t)) return "USER-DEFINED";
    const pg_type_row *pt = column_pg_type(t);
    if (pt) return pt->format;
    return attu_type_name(t, buf, cap);
}

/* information_schema's character_maximum_length, character_octet_length
 * of type ty */
static void is_char_lengths(rel_text *r, attu_type ty) {
    bool arr = attu_type_is_array(ty);
    /* character_maximum_length, character_octet_length */
    if (!arr && ty.id == ATTU_TYPE_TEXT && !attu_type_is_enum(ty)) {
        int n = attu_type_is_bpchar(ty) || (attu_type_is_varchar_any(ty) && ty.precision > 0) ? ty.precision : -1;
        if (n > 0) { v_int(r, n); v_int(r, (int64_t)n * 4); }
        else { v_null(r); v_int(r, 1073741824); }
    } else v_nulls(r, 2);
}

/* information_schema's numeric_precision ... interval_precision of type ty */
static void is_numeric_facts(rel_text *r, attu_type ty) {
    bool arr = attu_type_is_array(ty);
    /* numeric_precision, numeric_precision_radix, numeric_scale */
    int prec = -1, radix = 2, scale = -1;
    if (!arr) switch (ty.id) {
    case ATTU_TYPE_INT16: prec = 16; scale = 0; break;
    case ATTU_TYPE_INT32: prec = 32; scale = 0; break;
    case ATTU_TYPE_INT64: prec = 64; scale = 0; break;
    case ATTU_TYPE_FLOAT32: prec = 24; break;
    case ATTU_TYPE_FLOAT64: prec = 53; break;
    case ATTU_TYPE_DECIMAL:
        radix = 10;
        if (ty.precision > 0 && !ty.no_typmod) { prec = ty.precision; scale = ty.scale; } else prec = -2;
        break;
    case ATTU_TYPE_NUMERIC: radix = 10; prec = -2; break;
    default: break;
    }
    if (prec >= 0) v_int(r, prec); else v_null(r);
    if (prec != -1) v_int(r, radix); else v_null(r);
    if (scale >= 0) v_int(r, scale); else v_null(r);
    /* datetime_precision, interval_type, interval_precision */
    int dtp = -1;
    if (!arr) switch (ty.id) {
    case ATTU_TYPE_DATE: dtp = 0; break;
    case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIMESTAMPTZ: case ATTU_TYPE_TIME: case ATTU_TYPE_TIMETZ: dtp = 6; break;
    case ATTU_TYPE_INTERVAL: dtp = attu_type_interval_prec(ty) >= 0 ? attu_type_interval_prec(ty) : 6; break;
    default: break;
    }
    if (dtp >= 0) v_int(r, dtp); else v_null(r);
    if (!arr && ty.id == ATTU_TYPE_INTERVAL && attu_type_is_qualified_interval(ty) && attu_type_interval_range(ty)) {
        /* "DAY TO SECOND(2)": format_type's fields, upper case */
        char ib[96];
        attu_type_interval_name(ty, ib, sizeof ib);
        for (char *p = ib; *p; p++) if (*p >= 'a' && *p <= 'z') *p = (char)(*p - 'a' + 'A');
        v_text(r, ib + strlen("interval "));
    } else v_null(r);
    v_null(r);
}

/* One column of a table or view: k its index, d its DEFAULT, idseq the
 * sequence of an identity column (NULL: none), updatable a view's. */
static void is_column_row(rel_text *r, const syscat_env *env, const char *rel, const char *name, attu_type ty, int k,
                          bool not_null, const char *d, const attu_sequence *idseq, bool updatable,
                          const char *domain, const char *generation) {
    char buf[96];
    v_text(r, env->database); v_text(r, "public"); v_text(r, rel); v_text(r, name);
    char dbuf[1024];
    v_int(r, k + 1); v_text(r, d ? default_text(ty, d, dbuf, sizeof dbuf) : NULL);
    /* a column of a domain over a domain: PostgreSQL's data_type and udt
     * are those of the domain's typbasetype, the parent domain */
    /* an array of a domain ("d[]"): data_type ARRAY, udt_name _d and no
     * domain_name, as PostgreSQL's */
    char array_udt[ATTU_NAME_MAX + 2] = "";
    if (domain_text_is_array(domain)) {
        snprintf(array_udt, sizeof array_udt, "_%.*s", (int)(strlen(domain) - 2), domain);
        domain = NULL;
    }
    attu_domain_def *dd = domain ? attu_domain_find_in(attu_catalog_comments(env->cat), domain) : NULL;
    char parent[ATTU_NAME_MAX + 1] = "";
    if (dd && dd->parent) snprintf(parent, sizeof parent, "%s", dd->parent);
    attu_domain_def_free(dd);
    v_text(r, not_null ? "NO" : "YES"); v_text(r, parent[0] ? "USER-DEFINED" : is_data_type(ty, buf, sizeof buf));
    bool arr = attu_type_is_array(ty);
    is_char_lengths(r, ty);
    is_numeric_facts(r, ty);
    v_nulls(r, 3);   /* character_set_* */
    v_nulls(r, 3);   /* collation_*: NULL, as for PostgreSQL's default collation */
    if (domain) { v_text(r, env->database); v_text(r, "public"); v_text(r, domain); }
    else v_nulls(r, 3);   /* domain_* */
    const pg_type_row *pt = column_pg_type(ty);
    char udt[80];
    snprintf(udt, sizeof udt, "%s%s", arr ? "_" : "",
             arr ? (pg_type_array_elem((int)attu_type_pg_oid(ty)) ? pg_type_array_elem((int)attu_type_pg_oid(ty))->typname : "")
                 : (pt ? pt->typname : ""));
    /* an enum's own name, its array's with a "_" (pg_type's _mood) */
    bool en = attu_type_is_enum(arr ? attu_type_array_elem(ty) : ty);
    if (en) {
        char eb[72];
        snprintf(udt, sizeof udt, "%s%s", arr ? "_" : "", attu_type_name(arr ? attu_type_array_elem(ty) : ty, eb, sizeof eb));
    }
    if (parent[0]) { snprintf(udt, sizeof udt, "%s", parent); en = true; }
    if (array_udt[0]) { snprintf(udt, sizeof udt, "%s", array_udt); en = true; }
    v_text(r, env->database); v_text(r, en ? "public" : "pg_catalog"); v_text(r, udt);
    v_nulls(r, 4);   /* scope_*, maximum_cardinality */
    snprintf(buf, sizeof buf, "%d", k + 1);
    v_text(r, buf); v_text(r, "NO");
    if (idseq) {
        char b[4][24];
        snprintf(b[0], sizeof b[0], "%lld", (long long)idseq->start);
        snprintf(b[1], sizeof b[1], "%lld", (long long)idseq->increment);
        snprintf(b[2], sizeof b[2], "%lld", (long long)idseq->max);
        snprintf(b[3], sizeof b[3], "%lld", (long long)idseq->min);
        v_text(r, "YES"); v_text(r, idseq->identity == 'a' ? "ALWAYS" : "BY DEFAULT");
        for (int j = 0; j < 4; j++) v_text(r, b[j]);
        v_text(r, idseq->cycle ? "YES" : "NO");
    } else {
        v_text(r, "NO"); v_nulls(r, 5); v_text(r, "NO");
    }
    v_text(r, generation ? "ALWAYS" : "NEVER"); v_text(r, generation); v_text(r, updatable ? "YES" : "NO");
}

static void rows_is_columns(rel_text *r, const syscat_env *env) {
    for (size_t i = 0; i < env->rs.n; i++) {
        const rel_info *ri = &env->rs.r[i];
        if (ri->kind == 'r') {
            const attu_table *t = ri->t;
            for (int k = 0; k < t->ncols; k++) {
                const attu_sequence *s = syscat_owned_sequence(&env->rs, t->name, t->defs[k].name);
                if (s && !s->identity) s = NULL;
                const char *d = attu_catalog_default(env->cat, t->name, k);
                bool gen = t->defs[k].generated;
                is_column_row(r, env, t->name, t->defs[k].name, t->defs[k].type, k, t->defs[k].not_null,
                              s || gen ? NULL : d, s, true,
                              attu_domain_of_column(rel_domain_columns(env, ri), t->name, t->defs[k].name),
                              gen ? d : NULL);
            }
        } else if (ri->kind == 'v') {
            bool *upd = calloc((size_t)ri->v->ncols + 1, sizeof *upd);
            if (!upd) { r->b.oom = true; return; }
            view_updatable(env, ri->v, upd);
            for (int k = 0; k < ri->v->ncols; k++)
                is_column_row(r, env, ri->name, ri->v->col_names[k], ri->v->col_types[k], k, false,
                              ri->v->col_defaults[k], NULL, upd[k],
                              attu_domain_of_column(rel_domain_columns(env, ri), ri->name, ri->v->col_names[k]), NULL);
            free(upd);
        }
    }
}

/* information_schema.domains: one row per domain, its base type's facts */
static void is_domain_row(void *ctx, const attu_domain_def *d) {
    const void *const *pair = ctx;
    rel_text *r = (rel_text *)pair[0];
    const syscat_env *env = pair[1];
    char buf[96];
    v_text(r, env->database); v_text(r, "public"); v_text(r, d->name);
    v_text(r, d->parent ? "USER-DEFINED" : is_data_type(d->base, buf, sizeof buf));
    is_char_lengths(r, d->base);
    v_nulls(r, 3);   /* character_set_* */
    v_nulls(r, 3);   /* collation_*: the default collation's */
    is_numeric_facts(r, d->base);
    v_text(r, d->dflt);
    const pg_type_row *pt = column_pg_type(d->base);
    bool en = attu_type_is_enum(d->base);
    char eb[80];
    v_text(r, env->database); v_text(r, en || d->parent ? "public" : "pg_catalog");
    v_text(r, d->parent ? d->parent : en ? attu_type_name(d->base, eb, sizeof eb) : pt ? pt->typname : "");
    v_nulls(r, 4);   /* scope_*, maximum_cardinality */
    v_text(r, "1");
}

static void rows_is_domains(rel_text *r, const syscat_env *env) {
    const void *pair[2] = { r, env };
    attu_domain_each(attu_catalog_comments(env->cat), is_domain_row, pair);
}

/* information_schema.domain_constraints: a domain's CHECKs */
static void is_domain_constraint_rows(void *ctx, const attu_domain_def *d) {
    const void *const *pair = ctx;
    rel_text *r = (rel_text *)pair[0];
    const syscat_env *env = pair[1];
    for (int k = 0; k < d->n; k++) {
        v_text(r, env->database); v_text(r, "public"); v_text(r, d->checks[k].name);
        v_text(r, env->database); v_text(r, "public"); v_text(r, d->name);
        v_text(r, "NO"); v_text(r, "NO");
    }
}

static void rows_is_domain_constraints(rel_text *r, const syscat_env *env) {
    const void *pair[2] = { r, env };
    attu_domain_each(attu_catalog_comments(env->cat), is_domain_constraint_rows, pair);
}

typedef struct sys_relation {
    const char *schema;   /* "pg_catalog" or "information_schema" */
    const char *name;
    const char *cols;
    void (*rows)(rel_text *r, const syscat_env *env);   /* NULL: empty */
} sys_relation;

static const sys_relation sys_relations[] = {
    { "pg_catalog", "pg_namespace", "oid bigint, nspname text, nspowner bigint, nspacl text[]", rows_pg_namespace },
    { "pg_catalog", "pg_class",
      "oid bigint, relname text, relnamespace bigint, reltype bigint, reloftype bigint, relowner bigint, relam bigint, "
      "relfilenode bigint, reltablespace bigint, relpages integer, reltuples real, relallvisible integer, "
      "reltoastrelid bigint, relhasindex boolean, relisshared boolean, relpersistence text, relkind text, "
      "relnatts smallint, relchecks smallint, relhasrules boolean, relhastriggers boolean, relhassubclass boolean, "
      "relrowsecurity boolean, relforcerowsecurity boolean, relispopulated boolean, relreplident text, "
      "relispartition boolean, relrewrite bigint, relfrozenxid bigint, relminmxid bigint, relacl text[], "
      "reloptions text[], relpartbound text", rows_pg_class },
    { "pg_catalog", "pg_attribute",
      "attrelid bigint, attname text, atttypid bigint, attstattarget integer, attlen smallint, attnum smallint, "
      "attndims integer, attcacheoff integer, atttypmod integer, attbyval boolean, attalign text, attstorage text, "
      "attcompression text, attnotnull boolean, atthasdef boolean, atthasmissing boolean, attidentity text, "
      "attgenerated text, attisdropped boolean, attislocal boolean, attinhcount integer, attcollation bigint, "
      "attacl text[], attoptions text[], attfdwoptions text[], attmissingval text", rows_pg_attribute },
    { "pg_catalog", "pg_attrdef", "oid bigint, adrelid bigint, adnum smallint, adbin text", rows_pg_attrdef },
    { "pg_catalog", "pg_type",
      "oid bigint, typname text, typnamespace bigint, typowner bigint, typlen smallint, typbyval boolean, "
      "typtype text, typcategory text, typispreferred boolean, typisdefined boolean, typdelim text, typrelid bigint, "
      "typsubscript text, typelem bigint, typarray bigint, typinput text, typoutput text, typreceive text, "
      "typsend text, typmodin text, typmodout text, typanalyze text, typalign text, typstorage text, typnotnull boolean, typbasetype bigint, "
      "typtypmod integer, typndims integer, typcollation bigint, typdefaultbin text, typdefault text, typacl text[]",
      rows_pg_type },
    { "pg_catalog", "pg_index",
      "indexrelid bigint, indrelid bigint, indnatts smallint, indnkeyatts smallint, indisunique boolean, "
      "indnullsnotdistinct boolean, indisprimary boolean, indisexclusion boolean, indimmediate boolean, "
      "indisclustered boolean, indisvalid boolean, indcheckxmin boolean, indisready boolean, indislive boolean, "
      "indisreplident boolean, indkey smallint[], indcollation bigint[], indclass bigint[], indoption smallint[], "
      "indexprs text, indpred text", rows_pg_index },
    { "pg_catalog", "pg_database",
      "oid bigint, datname text, datdba bigint, encoding integer, datlocprovider text, datistemplate boolean, "
      "datallowconn boolean, datconnlimit integer, datfrozenxid bigint, datminmxid bigint, dattablespace bigint, "
      "datcollate text, datctype text, daticulocale text, datcollversion text, datacl text[]", rows_pg_database },
    { "pg_catalog", "pg_roles",
      "rolname text, rolsuper boolean, rolinherit boolean, rolcreaterole boolean, rolcreatedb boolean, "
      "rolcanlogin boolean, rolreplication boolean, rolconnlimit integer, rolpassword text, "
      "rolvaliduntil timestamptz, rolbypassrls boolean, rolconfig text[], oid bigint", rows_pg_roles },
    { "pg_catalog", "pg_user",
      "usename text, usesysid bigint, usecreatedb boolean, usesuper boolean, userepl boolean, usebypassrls boolean, "
      "passwd text, valuntil timestamptz, useconfig text[]", rows_pg_user },
    { "pg_catalog", "pg_am", "oid bigint, amname text, amhandler text, amtype text", rows_pg_am },
    { "pg_catalog", "pg_collation",
      "oid bigint, collname text, collnamespace bigint, collowner bigint, collprovider text, "
      "collisdeterministic boolean, collencoding integer, collcollate text, collctype text, colliculocale text, "
      "collversion text", rows_pg_collation },
    { "pg_catalog", "pg_tablespace", "oid bigint, spcname text, spcowner bigint, spcacl text[], spcoptions text[]",
      rows_pg_tablespace },
    { "pg_catalog", "pg_auth_members", "roleid bigint, member bigint, grantor bigint, admin_option boolean",
      rows_pg_auth_members },
    { "pg_catalog", "pg_authid",
      "oid bigint, rolname text, rolsuper boolean, rolinherit boolean, rolcreaterole boolean, rolcreatedb boolean, "
      "rolcanlogin boolean, rolreplication boolean, rolbypassrls boolean, rolconnlimit integer, rolpassword text, "
      "rolvaliduntil timestamptz", rows_pg_authid },
    { "pg_catalog", "pg_proc",
      "oid bigint, proname text, pronamespace bigint, proowner bigint, prolang bigint, procost real, prorows real, "
      "provariadic bigint, prosupport text, prokind text, prosecdef boolean, proleakproof boolean, "
      "proisstrict boolean, proretset boolean, provolatile text, proparallel text, pronargs smallint, "
      "pronargdefaults smallint, prorettype bigint, proargtypes bigint[], proallargtypes bigint[], "
      "proargmodes text[], proargnames text[], proargdefaults text, protrftypes bigint[], prosrc text, "
      "probin text, prosqlbody text, proconfig text[], proacl text[]", rows_pg_proc },
    { "pg_catalog", "pg_extension",
      "oid bigint, extname text, extowner bigint, extnamespace bigint, extrelocatable boolean, extversion text, "
      "extconfig bigint[], extcondition text[]", NULL },
    { "pg_catalog", "pg_tables",
      "schemaname text, tablename text, tableowner text, tablespace text, hasindexes boolean, hasrules boolean, "
      "hastriggers boolean, rowsecurity boolean", rows_pg_tables },
    { "pg_catalog", "pg_constraint",
      "oid bigint, conname text, connamespace bigint, contype text, condeferrable boolean, condeferred boolean, "
      "convalidated boolean, conrelid bigint, contypid bigint, conindid bigint, conparentid bigint, "
      "confrelid bigint, confupdtype text, confdeltype text, confmatchtype text, conislocal boolean, "
      "coninhcount integer, connoinherit boolean, conkey smallint[], confkey smallint[], conbin text", rows_pg_constraint },
    { "pg_catalog", "pg_description", "objoid bigint, classoid bigint, objsubid integer, description text", rows_pg_description },
    { "pg_catalog", "pg_policy",
      "oid bigint, polname text, polrelid bigint, polcmd text, polpermissive boolean, polroles bigint[], "
      "polqual text, polwithcheck text", NULL },
    { "pg_catalog", "pg_statistic_ext",
      "oid bigint, stxrelid bigint, stxname text, stxnamespace bigint, stxowner bigint, stxstattarget integer, "
      "stxkeys smallint[], stxkind text[], stxexprs text", NULL },
    { "pg_catalog", "pg_publication",
      "oid bigint, pubname text, pubowner bigint, puballtables boolean, pubinsert boolean, pubupdate boolean, "
      "pubdelete boolean, pubtruncate boolean, pubviaroot boolean", NULL },
    { "pg_catalog", "pg_publication_namespace", "oid bigint, pnpubid bigint, pnnspid bigint", NULL },
    { "pg_catalog", "pg_publication_rel",
      "oid bigint, prpubid bigint, prrelid bigint, prqual text, prattrs smallint[]", NULL },
    { "pg_catalog", "pg_inherits",
      "inhrelid bigint, inhparent bigint, inhseqno integer, inhdetachpending boolean", NULL },
    { "pg_catalog", "pg_trigger",
      "oid bigint, tgrelid bigint, tgparentid bigint, tgname text, tgfoid bigint, tgtype smallint, "
      "tgenabled text, tgisinternal boolean", NULL },
    /* more of PostgreSQL's catalogs, empty: attu has no such objects (their
     * columns PostgreSQL 15's, so clients' queries of them run) */
    { "pg_catalog", "pg_opclass",
      "oid bigint, opcmethod bigint, opcname text, opcnamespace bigint, opcowner bigint, opcfamily bigint, "
      "opcintype bigint, opcdefault boolean, opckeytype bigint", NULL },
    { "pg_catalog", "pg_opfamily",
      "oid bigint, opfmethod bigint, opfname text, opfnamespace bigint, opfowner bigint", NULL },
    { "pg_catalog", "pg_amop",
      "oid bigint, amopfamily bigint, amoplefttype bigint, amoprighttype bigint, amopstrategy smallint, "
      "amoppurpose text, amopopr bigint, amopmethod bigint, amopsortfamily bigint", NULL },
    { "pg_catalog", "pg_amproc",
      "oid bigint, amprocfamily bigint, amproclefttype bigint, amprocrighttype bigint, amprocnum smallint, "
      "amproc bigint", NULL },
    { "pg_catalog", "pg_conversion",
      "oid bigint, conname text, connamespace bigint, conowner bigint, conforencoding integer, "
      "contoencoding integer, conproc text, condefault boolean", NULL },
    { "pg_catalog", "pg_cast",
      "oid bigint, castsource bigint, casttarget bigint, castfunc bigint, castcontext text, castmethod text", NULL },
    { "pg_catalog", "pg_default_acl",
      "oid bigint, defaclrole bigint, defaclnamespace bigint, defaclobjtype text, defaclacl text[]", NULL },
    { "pg_catalog", "pg_foreign_server",
      "oid bigint, srvname text, srvowner bigint, srvfdw bigint, srvtype text, srvversion text, srvacl text[], "
      "srvoptions text[]", NULL },
    { "pg_catalog", "pg_foreign_table",
      "ftrelid bigint, ftserver bigint, ftoptions text[]", NULL },
    { "pg_catalog", "pg_user_mappings",
      "umid bigint, srvid bigint, srvname text, umuser bigint, usename text, umoptions text[]", NULL },
    { "pg_catalog", "pg_foreign_data_wrapper",
      "oid bigint, fdwname text, fdwowner bigint, fdwhandler bigint, fdwvalidator bigint, fdwacl text[], "
      "fdwoptions text[]", NULL },
    { "pg_catalog", "pg_ts_config",
      "oid bigint, cfgname text, cfgnamespace bigint, cfgowner bigint, cfgparser bigint", NULL },
    { "pg_catalog", "pg_ts_dict",
      "oid bigint, dictname text, dictnamespace bigint, dictowner bigint, dicttemplate bigint, "
      "dictinitoption text", NULL },
    { "pg_catalog", "pg_ts_parser",
      "oid bigint, prsname text, prsnamespace bigint, prsstart text, prstoken text, prsend text, "
      "prsheadline text, prslextype text", NULL },
    { "pg_catalog", "pg_ts_template",
      "oid bigint, tmplname text, tmplnamespace bigint, tmplinit text, tmpllexize text", NULL },
    { "pg_catalog", "pg_largeobject_metadata",
      "oid bigint, lomowner bigint, lomacl text[]", NULL },
    { "pg_catalog", "pg_language",
      "oid bigint, lanname text, lanowner bigint, lanispl boolean, lanpltrusted boolean, lanplcallfoid bigint, "
      "laninline bigint, lanvalidator bigint, lanacl text[]", rows_pg_language },
    { "pg_catalog", "pg_operator",
      "oid bigint, oprname text, oprnamespace bigint, oprowner bigint, oprkind text, oprcanmerge boolean, "
      "oprcanhash boolean, oprleft bigint, oprright bigint, oprresult bigint, oprcom bigint, oprnegate bigint, "
      "oprcode text, oprrest text, oprjoin text", NULL },
    { "pg_catalog", "pg_db_role_setting",
      "setdatabase bigint, setrole bigint, setconfig text[]", NULL },
    { "pg_catalog", "pg_subscription",
      "oid bigint, subdbid bigint, subskiplsn text, subname text, subowner bigint, subenabled boolean, "
      "subbinary boolean, substream boolean, subtwophasestate text, subdisableonerr boolean, subconninfo text, "
      "subslotname text, subsynccommit text, subpublications text[]", NULL },
    { "pg_catalog", "pg_event_trigger",
      "oid bigint, evtname text, evtevent text, evtowner bigint, evtfoid bigint, evtenabled text, "
      "evttags text[]", NULL },
    { "pg_catalog", "pg_settings",
      "name text, setting text, unit text, category text, short_desc text, extra_desc text, context text, "
      "vartype text, source text, min_val text, max_val text, enumvals text[], boot_val text, reset_val text, "
      "sourcefile text, sourceline integer, pending_restart boolean", rows_pg_settings },
    { "pg_catalog", "pg_cursors",
      "name text, statement text, is_holdable boolean, is_binary boolean, is_scrollable boolean, "
      "creation_time timestamptz", rows_pg_cursors },
    { "pg_catalog", "pg_prepared_statements",
      "name text, statement text, prepare_time timestamptz, parameter_types text[], from_sql boolean, "
      "generic_plans bigint, custom_plans bigint", rows_pg_prepared_statements },
    { "pg_catalog", "pg_parameter_acl", "oid bigint, parname text, paracl text[]", NULL },
    { "pg_catalog", "pg_stat_activity",
      "datid bigint, datname text, pid integer, leader_pid integer, usesysid bigint, usename text, "
      "application_name text, client_addr text, client_hostname text, client_port integer, "
      "backend_start timestamptz, xact_start timestamptz, query_start timestamptz, state_change timestamptz, "
      "wait_event_type text, wait_event text, state text, backend_xid bigint, backend_xmin bigint, "
      "query_id bigint, query text, backend_type text", rows_pg_stat_activity },
    { "pg_catalog", "pg_locks",
      "locktype text, database bigint, relation bigint, page integer, tuple smallint, virtualxid text, "
      "transactionid bigint, classid bigint, objid bigint, objsubid smallint, virtualtransaction text, "
      "pid integer, mode text, granted boolean, fastpath boolean, waitstart timestamptz", rows_pg_locks },
    { "pg_catalog", "pg_stat_database",
      "datid bigint, datname text, numbackends integer, xact_commit bigint, xact_rollback bigint, "
      "blks_read bigint, blks_hit bigint, tup_returned bigint, tup_fetched bigint, tup_inserted bigint, "
      "tup_updated bigint, tup_deleted bigint, conflicts bigint, temp_files bigint, temp_bytes bigint, "
      "deadlocks bigint, checksum_failures bigint, checksum_last_failure timestamptz, blk_read_time double precision, "
      "blk_write_time double precision, session_time double precision, active_time double precision, "
      "idle_in_transaction_time double precision, sessions bigint, sessions_abandoned bigint, "
      "sessions_fatal bigint, sessions_killed bigint, stats_reset timestamptz", rows_pg_stat_database },
    { "pg_catalog", "pg_views",
      "schemaname text, viewname text, viewowner text, definition text", rows_pg_views },
    { "pg_catalog", "pg_indexes",
      "schemaname text, tablename text, indexname text, tablespace text, indexdef text", rows_pg_indexes },
    { "pg_catalog", "pg_matviews",
      "schemaname text, matviewname text, matviewowner text, tablespace text, hasindexes boolean, "
      "ispopulated boolean, definition text", rows_pg_matviews },
    { "pg_catalog", "pg_sequence",
      "seqrelid bigint, seqtypid bigint, seqstart bigint, seqincrement bigint, seqmax bigint, seqmin bigint, "
      "seqcache bigint, seqcycle boolean", rows_pg_sequence },
    { "pg_catalog", "pg_sequences",
      "schemaname text, sequencename text, sequenceowner text, data_type text, start_value bigint, "
      "min_value bigint, max_value bigint, increment_by bigint, cycle boolean, cache_size bigint, "
      "last_value bigint", rows_pg_sequences },
    { "pg_catalog", "pg_rewrite",
      "oid bigint, rulename text, ev_class bigint, ev_type text, ev_enabled text, is_instead boolean, "
      "ev_qual text, ev_action text", NULL },
    { "pg_catalog", "pg_enum",
      "oid bigint, enumtypid bigint, enumsortorder real, enumlabel text", rows_pg_enum },
    { "pg_catalog", "pg_range",
      "rngtypid bigint, rngsubtype bigint, rngmultitypid bigint, rngcollation bigint, rngsubopc bigint, "
      "rngcanonical text, rngsubdiff text", NULL },
    { "pg_catalog", "pg_shdescription",
      "objoid bigint, classoid bigint, description text", NULL },
    { "pg_catalog", "pg_depend",
      "classid bigint, objid bigint, objsubid integer, refclassid bigint, refobjid bigint, refobjsubid integer, "
      "deptype text", rows_pg_depend },
    { "information_schema", "tables",
      "table_catalog text, table_schema text, table_name text, table_type text, self_referencing_column_name text, "
      "reference_generation text, user_defined_type_catalog text, user_defined_type_schema text, "
      "user_defined_type_name text, is_insertable_into text, is_typed text, commit_action text", rows_is_tables },
    { "information_schema", "columns",
      "table_catalog text, table_schema text, table_name text, column_name text, ordinal_position integer, "
      "column_default text, is_nullable text, data_type text, character_maximum_length integer, "
      "character_octet_length integer, numeric_precision integer, numeric_precision_radix integer, "
      "numeric_scale integer, datetime_precision integer, interval_type text, interval_precision integer, "
      "character_set_catalog text, character_set_schema text, character_set_name text, collation_catalog text, "
      "collation_schema text, collation_name text, domain_catalog text, domain_schema text, domain_name text, "
      "udt_catalog text, udt_schema text, udt_name text, scope_catalog text, scope_schema text, scope_name text, "
      "maximum_cardinality integer, dtd_identifier text, is_self_referencing text, is_identity text, "
      "identity_generation text, identity_start text, identity_increment text, identity_maximum text, "
      "identity_minimum text, identity_cycle text, is_generated text, generation_expression text, "
      "is_updatable text", rows_is_columns },
    { "information_schema", "domains",
      "domain_catalog text, domain_schema text, domain_name text, data_type text, character_maximum_length integer, "
      "character_octet_length integer, character_set_catalog text, character_set_schema text, character_set_name text, "
      "collation_catalog text, collation_schema text, collation_name text, numeric_precision integer, "
      "numeric_precision_radix integer, numeric_scale integer, datetime_precision integer, interval_type text, "
      "interval_precision integer, domain_default text, udt_catalog text, udt_schema text, udt_name text, "
      "scope_catalog text, scope_schema text, scope_name text, maximum_cardinality integer, dtd_identifier text",
      rows_is_domains },
    { "information_schema", "domain_constraints",
      "constraint_catalog text, constraint_schema text, constraint_name text, domain_catalog text, domain_schema text, "
      "domain_name text, is_deferrable text, initially_deferred text", rows_is_domain_constraints },
    { "information_schema", "views",
      "table_catalog text, table_schema text, table_name text, view_definition text, check_option text, "
      "is_updatable text, is_insertable_into text, is_trigger_updatable text, is_trigger_deletable text, "
      "is_trigger_insertable_into text", rows_is_views },
    { "information_schema", "routines",
      "specific_catalog text, specific_schema text, specific_name text, routine_catalog text, routine_schema text, "
      "routine_name text, routine_type text, data_type text, type_udt_catalog text, type_udt_schema text, "
      "type_udt_name text, routine_body text, routine_definition text, external_language text, "
      "parameter_style text, is_deterministic text, sql_data_access text, is_null_call text, "
      "security_type text", rows_is_routines },
    { "information_schema", "parameters",
      "specific_catalog text, specific_schema text, specific_name text, ordinal_position integer, "
      "parameter_mode text, is_result text, as_locator text, parameter_name text, data_type text, "
      "character_maximum_length integer, character_octet_length integer, character_set_catalog text, "
      "character_set_schema text, character_set_name text, collation_catalog text, collation_schema text, "
      "collation_name text, numeric_precision integer, numeric_precision_radix integer, numeric_scale integer, "
      "datetime_precision integer, interval_type text, interval_precision integer, udt_catalog text, "
      "udt_schema text, udt_name text, scope_catalog text, scope_schema text, scope_name text, "
      "maximum_cardinality integer, dtd_identifier text, parameter_default text", rows_is_parameters },
    { "information_schema", "sequences",
      "sequence_catalog text, sequence_schema text, sequence_name text, data_type text, numeric_precision integer, "
      "numeric_precision_radix integer, numeric_scale integer, start_value text, minimum_value text, "
      "maximum_value text, increment text, cycle_option text", rows_is_sequences },
    { "information_schema", "table_constraints",
      "constraint_catalog text, constraint_schema text, constraint_name text, table_catalog text, "
      "table_schema text, table_name text, constraint_type text, is_deferrable text, initially_deferred text, "
      "enforced text, nulls_distinct text", rows_is_table_constraints },
    { "information_schema", "key_column_usage",
      "constraint_catalog text, constraint_schema text, constraint_name text, table_catalog text, "
      "table_schema text, table_name text, column_name text, ordinal_position integer, "
      "position_in_unique_constraint integer", rows_is_key_column_usage },
    { "information_schema", "referential_constraints",
      "constraint_catalog text, constraint_schema text, constraint_name text, unique_constraint_catalog text, "
      "unique_constraint_schema text, unique_constraint_name text, match_option text, update_rule text, "
      "delete_rule text", rows_is_referential_constraints },
    { "information_schema", "constraint_column_usage",
      "table_catalog text, table_schema text, table_name text, column_name text, constraint_catalog text, "
      "constraint_schema text, constraint_name text", rows_is_constraint_column_usage },
    { "information_schema", "schemata",
      "catalog_name text, schema_name text, schema_owner text, default_character_set_catalog text, "
      "default_character_set_schema text, default_character_set_name text, sql_path text", rows_is_schemata },
};

static const sys_relation *find_relation(const char *schema, const char *name) {
    for (size_t i = 0; i < sizeof sys_relations / sizeof sys_relations[0]; i++)
        if (!strcmp(sys_relations[i].name, name) && (!schema || !strcmp(sys_relations[i].schema, schema)) &&
            (schema || !strcmp(sys_relations[i].schema, "pg_catalog")))
            return &sys_relations[i];
    return NULL;
}

bool syscat_is_relation(const char *schema, const char *name) { return find_relation(schema, name) != NULL; }

bool attu_system_vector_column(const char *relation, const char *column) {
    static const struct { const char *rel, *col; } vectors[] = {
        { "pg_index", "indkey" }, { "pg_index", "indcollation" }, { "pg_index", "indclass" },
        { "pg_index", "indoption" }, { "pg_proc", "proargtypes" },
    };
    for (size_t i = 0; i < sizeof vectors / sizeof vectors[0]; i++)
        if (!strcmp(vectors[i].rel, relation) && !strcmp(vectors[i].col, column)) return true;
    return false;
}

/* (system_catalog_internal.h; PostgreSQL 15's relkind 'r' relations of
 * pg_catalog: views such as pg_roles and pg_tables have none) */
static const struct { const char *name; int oid; } catalog_tables[] = {
    { "pg_aggregate", 2600 }, { "pg_am", 2601 }, { "pg_amop", 2602 }, { "pg_amproc", 2603 },
    { "pg_attrdef", 2604 }, { "pg_attribute", 1249 }, { "pg_auth_members", 1261 }, { "pg_authid", 1260 },
    { "pg_cast", 2605 }, { "pg_class", SYSCAT_OID_PG_CLASS }, { "pg_collation", 3456 }, { "pg_constraint", SYSCAT_OID_PG_CONSTRAINT },
    { "pg_conversion", 2607 }, { "pg_database", 1262 }, { "pg_db_role_setting", 2964 },
    { "pg_default_acl", 826 }, { "pg_depend", 2608 }, { "pg_description", 2609 }, { "pg_enum", 3501 },
    { "pg_event_trigger", 3466 }, { "pg_extension", 3079 }, { "pg_foreign_data_wrapper", 2328 },
    { "pg_foreign_server", 1417 }, { "pg_foreign_table", 3118 }, { "pg_index", 2610 },
    { "pg_inherits", 2611 }, { "pg_init_privs", 3394 }, { "pg_language", SYSCAT_OID_PG_LANGUAGE }, { "pg_largeobject", 2613 },
    { "pg_largeobject_metadata", 2995 }, { "pg_namespace", 2615 }, { "pg_opclass", 2616 },
    { "pg_operator", 2617 }, { "pg_opfamily", 2753 }, { "pg_parameter_acl", 6243 },
    { "pg_partitioned_table", 3350 }, { "pg_policy", 3256 }, { "pg_proc", SYSCAT_OID_PG_PROC }, { "pg_publication", 6104 },
    { "pg_publication_namespace", 6237 }, { "pg_publication_rel", 6106 }, { "pg_range", 3541 },
    { "pg_replication_origin", 6000 }, { "pg_rewrite", 2618 }, { "pg_seclabel", 3596 },
    { "pg_sequence", 2224 }, { "pg_shdepend", 1214 }, { "pg_shdescription", 2396 }, { "pg_shseclabel", 3592 },
    { "pg_statistic", 2619 }, { "pg_statistic_ext", 3381 }, { "pg_statistic_ext_data", 3429 },
    { "pg_subscription", 6100 }, { "pg_subscription_rel", 6102 }, { "pg_tablespace", 1213 },
    { "pg_transform", 3576 }, { "pg_trigger", 2620 }, { "pg_ts_config", 3602 }, { "pg_ts_config_map", 3603 },
    { "pg_ts_dict", 3600 }, { "pg_ts_parser", 3601 }, { "pg_ts_template", 3764 }, { "pg_type", 1247 },
    { "pg_user_mapping", 1418 },
};

int64_t syscat_table_oid(const char *name) {
    for (size_t i = 0; i < sizeof catalog_tables / sizeof catalog_tables[0]; i++)
        if (!strcmp(catalog_tables[i].name, name)) return catalog_tables[i].oid;
    return 0;
}

const char *syscat_table_at(size_t i, int64_t *oid) {
    if (i >= sizeof catalog_tables / sizeof catalog_tables[0]) return NULL;
    *oid = catalog_tables[i].oid;
    return catalog_tables[i].name;
}

bool attu_is_system_schema(const char *schema) {
    return schema && (!strcmp(schema, "pg_catalog") || !strcmp(schema, "information_schema"));
}

const char *syscat_user(const bctx *c) {
    return c->params && c->params->user && *c->params->user ? c->params->user : "attu";
}
const char *syscat_bootstrap_user(const bctx *c) {
    const char *u = syscat_user(c);
    attu_role r;
    if (!c->cat || !attu_role_find(attu_catalog_comments(c->cat), u, &r)) return u;
    attu_role_clear(&r);
    return "attu";
}
const char *syscat_database(const bctx *c) {
    return c->params && c->params->database && *c->params->database ? c->params->database : "attu";
}

static void free_parse(void *p) { attu_parse_free(p); }

/* Parses text (taking it; its copy in the plan arena is what the syntax
 * tree's positions refer to) and keeps the result until the plan arena
 * goes; NULL with c->err set on failure. */
const attu_parse_result *syscat_parse_kept(bctx *c, char *text, const char **kept) {
    if (!text) { attu_error_oom(c->err); return NULL; }
    char *copy = attu_pstrdup(c->pa, text, strlen(text));
    free(text);
    if (!copy) { attu_error_oom(c->err); return NULL; }
    attu_error e;
    memset(&e, 0, sizeof e);
    attu_parse_result *pr = attu_parse(copy, &e);
    if (!pr) {
        /* a fault of this file's text, never of the user's query */
        attu_error_set(c->err, "XX000", 0, "internal error in a system catalog query: %s", e.message);
        return NULL;
    }
    if (attu_plan_arena_on_free(c->pa, free_parse, pr)) { attu_error_oom(c->err); return NULL; }   /* (pr freed) */
    if (pr->n != 1 || pr->stmts[0].stmt->kind != ATTU_STMT_SELECT) {
        attu_error_set(c->err, "XX000", 0, "internal error in a system catalog query");
        return NULL;
    }
    if (kept) *kept = copy;
    return pr;
}

const attu_ast_expr *syscat_parse_item(bctx *c, char *text) {
    const attu_parse_result *pr = syscat_parse_kept(c, text, NULL);
    return pr ? pr->stmts[0].stmt->u.select.query->u.select.items[0].expr : NULL;
}

const attu_ast_query *attu_system_relation(bctx *c, const char *schema, const char *name, int pos,
                                           bool *is_system, const char **text, bool *tableoid) {
    *is_system = false;
    *tableoid = false;
    if (schema && !attu_is_system_schema(schema)) return NULL;
    const sys_relation *sr = find_relation(schema, name);
    if (!sr) {
        if (!schema) return NULL;
        *is_system = true;
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_TABLE, pos, "relation \"%s.%s\" does not exist", schema, name);
        return NULL;
    }
    *is_system = true;
    syscat_env env = { c->cat, c->params, { 0 }, syscat_bootstrap_user(c), syscat_database(c) };
    if (!syscat_rels_load(c, &env.rs)) { attu_error_oom(c->err); return NULL; }
    rel_text r;
    if (!rel_begin(&r, sr->cols)) { rel_free(&r); syscat_rels_free(&env.rs); attu_error_oom(c->err); return NULL; }
    if (sr->rows) sr->rows(&r, &env);
    syscat_rels_free(&env.rs);
    const int64_t oid = strcmp(sr->schema, "pg_catalog") ? 0 : syscat_table_oid(sr->name);
    *tableoid = oid > 0;
    const attu_parse_result *pr = syscat_parse_kept(c, rel_finish(&r, oid), text);
    return pr ? pr->stmts[0].stmt->u.select.query : NULL;
}

