/*
 * domain_bind.c - a cast to a domain (x::d, CAST(x AS d)): the value as
 * the base type, checked against the domain's rules as PostgreSQL's
 * domain input does (engine/domain_type.h).
 *
 * The cast becomes
 *
 *     CASE WHEN v IS NULL THEN <NULL, or 23502 when NOT NULL>
 *          WHEN NOT (check_1 over v) THEN <23514 check_1>
 *          ...
 *          ELSE v END
 *
 * with the CHECKs in attu_domain_rules' order (PostgreSQL's: a parent
 * domain's first, each domain's by name), each bound from its text
 * with the name VALUE standing for v (bctx.domain_value), and the errors
 * raised by ATTU_OP_SUBQUERY_ERROR (a TEXT constant: the SQLSTATE, then
 * the message), as an enum's input raises 22P02 (enum_bind.c). Nothing
 * here is a new opcode: the GPU expression evaluator declines
 * SUBQUERY_ERROR, so the host evaluates a guarded cast.
 */
#include "planner/binder_internal.h"
#include "planner/parser.h"
#include "engine/domain_type.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void free_parse(void *p) { attu_parse_free(p); }

static attu_bexpr *raise_const(bctx *c, attu_type t, const char *msg, int pos) {
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT);
    attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, txt, pos);
    size_t len = strlen(msg);
    if (!k || !(k->s = attu_pstrdup(c->pa, msg, len))) { attu_error_oom(c->err); return NULL; }
    k->slen = len;
    return mk_call(c, ATTU_OP_SUBQUERY_ERROR, t, pos, 1, k, NULL, NULL, NULL);
}

/* CHECK text of d bound over v: the parsed text is kept with the plan
 * (its arena frees it). */
static attu_bexpr *bind_check(bctx *c, const scope *sc, attu_bexpr *v, const char *expr, const char *dname) {
    size_t n = strlen(expr);
    char *sql = malloc(n + 16);
    if (!sql) { attu_error_oom(c->err); return NULL; }
    snprintf(sql, n + 16, "SELECT (\n%s\n)", expr);
    attu_error perr;
    attu_error_clear(&perr);
    attu_parse_result *pr = attu_parse(sql, &perr);
    free(sql);
    if (!pr) {
        attu_error_set(c->err, ATTU_SQLSTATE_INTERNAL, 0, "a check constraint of domain %s no longer parses: %s", dname,
                       perr.message);
        return NULL;
    }
    if (attu_plan_arena_on_free(c->pa, free_parse, pr)) { attu_parse_free(pr); attu_error_oom(c->err); return NULL; }
    const attu_ast_stmt *st = pr->n == 1 ? pr->stmts[0].stmt : NULL;
    const attu_ast_query *q = st && st->kind == ATTU_STMT_SELECT ? st->u.select.query : NULL;
    if (!q || q->kind != ATTU_QUERY_SELECT || q->u.select.nitems != 1) {
        attu_error_set(c->err, ATTU_SQLSTATE_INTERNAL, 0, "a check constraint of domain %s is not one expression", dname);
        return NULL;
    }
    /* a CHECK that casts to its own domain (ALTER DOMAIN d ADD CHECK
     * (VALUE::d > 0)) would bind forever: PostgreSQL's 54001 */
    static _Thread_local int depth;
    if (depth >= 32) {
        attu_error_set(c->err, "54001", 0, "stack depth limit exceeded");
        return NULL;
    }
    attu_bexpr *saved = c->domain_value;
    c->domain_value = v;
    depth++;
    attu_bexpr *b = bind_expr(c, sc, q->u.select.items[0].expr);
    depth--;
    c->domain_value = saved;
    return b;
}

attu_bexpr *attu_domain_guard(bctx *c, const scope *sc, attu_bexpr *v, const char *name, int pos) {
    if (!strncmp(name, "public.", 7)) name += 7;
    attu_domain_def *d = attu_domain_rules(name);
    if (!d) return v;
    /* the base type as the domain has it (numeric(5,2) keeps its typmod
     * although the cast names none) */
    if (v->type.id == ATTU_TYPE_DECIMAL && d->base.id == ATTU_TYPE_DECIMAL) v->type.no_typmod = d->base.no_typmod;
    if (!d->not_null && !d->n) { attu_domain_def_free(d); return v; }
    attu_type tb = attu_type_make(ATTU_TYPE_BOOL), t = v->type;
    int nw = 1 + d->n;
    attu_bexpr *k = attu_bx_new(c->pa, BX_CASE, t, pos);
    if (!k || !(k->whens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)nw)) ||
        !(k->thens = attu_palloc(c->pa, sizeof(attu_bexpr *) * (size_t)nw))) {
        attu_domain_def_free(d);
        attu_error_oom(c->err);
        return NULL;
    }
    char msg[300];
    k->nwhens = nw;
    k->whens[0] = mk_call(c, ATTU_OP_IS_NULL, tb, pos, 1, v, NULL, NULL, NULL);
    snprintf(msg, sizeof msg, "23502domain %s does not allow null values", d->name);
    k->thens[0] = d->not_null ? raise_const(c, t, msg, pos) : mk_const_null(c, t);
    attu_bexpr *r = k;
    for (int i = 0; i < d->n && r; i++) {
        attu_bexpr *b = bind_check(c, sc, v, d->checks[i].expr, d->name);
        attu_bexpr *nb = b ? mk_call(c, ATTU_OP_NOT, tb, pos, 1, b, NULL, NULL, NULL) : NULL;
        snprintf(msg, sizeof msg, "23514value for domain %s violates check constraint \"%s\"", d->name, d->checks[i].name);
        k->whens[1 + i] = nb;
        k->thens[1 + i] = nb ? raise_const(c, t, msg, pos) : NULL;
        if (!k->whens[1 + i] || !k->thens[1 + i]) r = NULL;
    }
    if (!k->whens[0] || !k->thens[0]) r = NULL;
    k->else_ = v;
    attu_domain_def_free(d);
    if (!r && !c->err->set) attu_error_oom(c->err);
    return r;
}
