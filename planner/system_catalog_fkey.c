/*
 * system_catalog_fkey.c - FOREIGN KEY constraints (engine/fkey.h) as the
 * system catalogs show them: their pg_constraint OIDs, their
 * pg_get_constraintdef text, and which tables PostgreSQL marks as having
 * triggers (relhastriggers: both sides of a foreign key, whose checks are
 * triggers there), which is what makes psql's \d list "Foreign-key
 * constraints:" and "Referenced by:".
 */
#include "planner/system_catalog_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int64_t syscat_fkey_oid(const char *table, const char *name) {
    char key[2 * ATTU_NAME_MAX + 8];
    snprintf(key, sizeof key, "%s\001fkey\001%s", table, name);
    return syscat_name_hash_oid(key);
}

bool syscat_fkey_triggers(const attu_catalog *cat, const char *table) {
    int nf = 0;
    if (attu_catalog_fkeys(cat, table, &nf)) return true;
    for (size_t i = 0; i < attu_catalog_count(cat); i++) {
        const attu_fkey *f = attu_catalog_fkeys(cat, attu_catalog_at(cat, i)->name, &nf);
        for (int k = 0; k < nf; k++) if (!strcmp(f[k].ref_table, table)) return true;
    }
    return false;
}

const rel_info *syscat_fkey_index(const syscat_rels *rs, const attu_fkey *f) {
    for (size_t i = 0; i < rs->n; i++) {
        const rel_info *ri = &rs->r[i];
        if (ri->kind != 'i' || ri->ix || strcmp(ri->t->name, f->ref_table) || ri->u->ncols != f->ncols) continue;
        if (ri->u->deferrable) continue;   /* (never a foreign key's: db_fkey_define) */
        bool same = true;
        for (int j = 0; j < f->ncols && same; j++) {
            bool in = false;
            for (int q = 0; q < f->ncols; q++) in |= ri->u->cols[q] == f->ref_cols[j];
            same = in;
        }
        if (same) return ri;
    }
    return NULL;
}

const char *syscat_fkey_action(char a) {
    switch (a) {
    case 'r': return "RESTRICT";
    case 'c': return "CASCADE";
    case 'n': return "SET NULL";
    case 'd': return "SET DEFAULT";
    default: return "NO ACTION";
    }
}

/* "FOREIGN KEY (a) REFERENCES p(id) ON DELETE CASCADE", as PostgreSQL's
 * ruleutils writes it: MATCH FULL when full, ON UPDATE then ON DELETE
 * when not NO ACTION */
char *syscat_fkey_definition(const attu_catalog *cat, const attu_table *t, const attu_fkey *f) {
    const attu_table *p = attu_catalog_lookup(cat, f->ref_table);
    sbuf d = {0};
    syscat_sb_puts(&d, "FOREIGN KEY (");
    for (int j = 0; j < f->ncols; j++) {
        if (j) syscat_sb_puts(&d, ", ");
        syscat_sb_ident(&d, t->defs[f->cols[j]].name);
    }
    syscat_sb_puts(&d, ") REFERENCES ");
    syscat_sb_ident(&d, f->ref_table);
    syscat_sb_puts(&d, "(");
    for (int j = 0; j < f->ncols; j++) {
        if (j) syscat_sb_puts(&d, ", ");
        syscat_sb_ident(&d, p && f->ref_cols[j] < p->ncols ? p->defs[f->ref_cols[j]].name : "?");
    }
    syscat_sb_puts(&d, ")");
    if (f->match == 'f') syscat_sb_puts(&d, " MATCH FULL");
    if (f->on_update != 'a') syscat_sb_printf(&d, " ON UPDATE %s", syscat_fkey_action(f->on_update));
    if (f->on_delete != 'a') syscat_sb_printf(&d, " ON DELETE %s", syscat_fkey_action(f->on_delete));
    for (int j = 0; j < f->ndelete_set; j++) {   /* SET NULL (b) */
        syscat_sb_puts(&d, j ? ", " : " (");
        syscat_sb_ident(&d, t->defs[f->cols[f->delete_set[j]]].name);
        if (j == f->ndelete_set - 1) syscat_sb_puts(&d, ")");
    }
    if (f->deferrable) syscat_sb_puts(&d, " DEFERRABLE");
    if (f->initially_deferred) syscat_sb_puts(&d, " INITIALLY DEFERRED");
    if (f->not_valid) syscat_sb_puts(&d, " NOT VALID");
    if (d.oom) { free(d.p); return NULL; }
    return d.p;
}

/* pg_partition_ancestors(rel) in FROM (psql's \d asks it in its triggers
 * query): no table is a partition, so no rows, which unnest of an empty
 * bigint[] gives; the call it stands for, parsed for the plan. */
const attu_ast_expr *syscat_no_ancestors(bctx *c) {
    return syscat_parse_item(c, strdup("SELECT unnest('{}'::bigint[])"));
}

/* pg_partition_tree(rel) in FROM (psql's \dP+ sizes each partitioned
 * table's tree with it): attu has no partitioned table, and PostgreSQL
 * gives no rows for any other relation, so an unnest of four empty arrays
 * of its columns' types (relid, parentrelid, isleaf, level: named by the
 * caller, planner/srf.c). */
const attu_ast_expr *syscat_no_partition_tree(bctx *c) {
    return syscat_parse_item(c, strdup("SELECT unnest('{}'::bigint[], '{}'::bigint[], '{}'::boolean[], '{}'::integer[])"));
}
