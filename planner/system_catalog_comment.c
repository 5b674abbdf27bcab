/*
 * system_catalog_comment.c - COMMENT ON's comments (engine/comments.h)
 * as the system catalogs show them: pg_description's rows (objoid,
 * classoid pg_class 1259 or pg_constraint 2606, objsubid the column's
 * number or 0) and obj_description / col_description, which psql's \dt+
 * and \d+ call; a function's (classoid pg_proc 1255), which psql's \df+
 * shows, is kept in its definition. A comment whose object is gone (the db layer drops them
 * with their objects; this is the last guard) shows nowhere.
 */
#include "planner/system_catalog_internal.h"

#include <string.h>

#include "engine/sql_function.h"

bool syscat_comment_target(const syscat_rels *rs, const attu_catalog *cat, const attu_comment *c, int64_t *objoid,
                           int64_t *classoid, int *objsubid) {
    /* (the store's other kinds are no comments: enum types' and domains'
     * definitions, columns' domains: engine/domain_type.h) */
    if (c->kind != 'r' && c->kind != 'c' && c->kind != 'k') return false;
    const rel_info *ri = syscat_rel_find(rs, c->rel);
    if (!ri || (ri->kind != 'r' && ri->kind != 'v' && ri->kind != 'm' && !(ri->kind == 'i' && c->kind == 'r'))) return false;
    *objoid = ri->oid;
    *classoid = SYSCAT_OID_PG_CLASS;
    *objsubid = 0;
    if (c->kind == 'r') return true;
    if (c->kind == 'c') {
        if (ri->kind == 'v') {
            for (int k = 0; k < ri->v->ncols; k++)
                if (!strcmp(ri->v->col_names[k], c->sub)) { *objsubid = k + 1; return true; }
            return false;
        }
        int k = attu_table_find_column(ri->t, c->sub);
        if (k < 0) return false;
        *objsubid = k + 1;
        return true;
    }
    /* a constraint of a table: PRIMARY KEY / UNIQUE (its index's), CHECK,
     * FOREIGN KEY */
    if (ri->kind != 'r') return false;
    *classoid = SYSCAT_OID_PG_CONSTRAINT;
    const rel_info *ix = syscat_rel_find(rs, c->sub);
    if (ix && ix->kind == 'i' && !ix->ix && !strcmp(ix->t->name, c->rel)) { *objoid = syscat_constraint_oid(ix); return true; }
    int n = 0;
    const attu_check *cs = attu_catalog_checks(cat, c->rel, &n);
    for (int k = 0; k < n; k++)
        if (!strcmp(cs[k].name, c->sub)) { *objoid = syscat_check_oid(c->rel, c->sub); return true; }
    const attu_fkey *fs = attu_catalog_fkeys(cat, c->rel, &n);
    for (int k = 0; k < n; k++)
        if (!strcmp(fs[k].name, c->sub)) { *objoid = syscat_fkey_oid(c->rel, c->sub); return true; }
    return false;
}

/* a function's comment (kept in its definition: engine/sql_function.h)
 * as obj_description's arm: its OID, of pg_proc */
typedef struct fn_desc { sbuf *b; int n; } fn_desc;

static void function_description(void *ctx, const attu_sql_function *f) {
    fn_desc *d = ctx;
    if (!f->comment) return;
    syscat_sb_printf(d->b, " WHEN $1 = %u%s THEN ", attu_function_oid(f->id), d->n == 2 ? " AND $2 = 'pg_proc'" : "");
    syscat_sb_quote(d->b, f->comment);
}

/* obj_description(oid [, catalog]) and col_description(oid, column): a
 * CASE over the comments there are. */
bool syscat_description_body(bctx *c, sbuf *b, int n, bool column) {
    syscat_rels rs;
    if (!syscat_rels_load(c, &rs)) { b->oom = true; return true; }
    const attu_comments *cs = attu_catalog_comments(c->cat);
    /* (a first WHEN that never holds: a CASE needs one) */
    syscat_sb_puts(b, "CASE WHEN false THEN NULL::text");
    for (size_t i = 0; i < attu_comments_count(cs); i++) {
        const attu_comment *cm = attu_comments_at(cs, i);
        int64_t objoid, classoid;
        int sub;
        if (!syscat_comment_target(&rs, c->cat, cm, &objoid, &classoid, &sub)) continue;
        if (column) {
            if (classoid != SYSCAT_OID_PG_CLASS) continue;
            syscat_sb_printf(b, " WHEN $1 = %lld AND $2 = %d THEN ", (long long)objoid, sub);
        } else {
            if (sub) continue;
            syscat_sb_printf(b, " WHEN $1 = %lld", (long long)objoid);
            if (n == 2)
                syscat_sb_puts(b, classoid == SYSCAT_OID_PG_CLASS ? " AND $2 = 'pg_class'" : " AND $2 = 'pg_constraint'");
            syscat_sb_puts(b, " THEN ");
        }
        syscat_sb_quote(b, cm->text);
    }
    syscat_rels_free(&rs);
    if (!column) {
        const syscat_language *l;
        for (size_t i = 0; (l = syscat_builtin_language(i)); i++) {
            syscat_sb_printf(b, " WHEN $1 = %d%s THEN ", l->oid, n == 2 ? " AND $2 = 'pg_language'" : "");
            syscat_sb_quote(b, l->description);
        }
        fn_desc d = { b, n };
        attu_sql_function_each(cs, function_description, &d);
    }
    syscat_sb_puts(b, " ELSE NULL::text END");
    return true;
}
