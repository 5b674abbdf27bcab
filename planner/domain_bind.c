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
 *
 * A cast to an array of a domain (x::d[]) checks each element, as
 * PostgreSQL's array input does through the element type's: it becomes
 *
 *     CASE WHEN (SELECT count(e::d) FROM unnest(x::d[]) AS u(e)) >= 0
 *          THEN x::d[] END
 *
 * whose subquery casts every element to d (the guard above raising the
 * first failing one's error, in the array's order) and whose x::d[] (both)
 * is the plain conversion (bound as the base type's array:
 * bctx.array_domain_cast keeps it from being rewritten again).
 */
#include "planner/binder_internal.h"
#include "planner/parser.h"
#include "engine/domain_type.h"
#include "engine/strbuf.h"

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

/* The element domain of a type name "d[]" (d a domain with rules), or
 * NULL: into buf. */
static const char *array_element_domain(const char *name, char *buf, size_t cap) {
    if (!name) return NULL;
    if (!strncmp(name, "public.", 7)) name += 7;
    size_t n = strlen(name);
    if (n < 3 || n - 2 >= cap || strcmp(name + n - 2, "[]")) return NULL;
    memcpy(buf, name, n - 2);
    buf[n - 2] = 0;
    attu_domain_def *d = attu_domain_rules(buf);
    bool rules = d && (d->not_null || d->n);
    attu_domain_def_free(d);
    return rules ? buf : NULL;
}

bool attu_domain_array_cast(bctx *c, const scope *sc, const attu_ast_expr *e, attu_bexpr **out) {
    char dn[ATTU_NAME_MAX + 1];
    *out = NULL;
    if (e->kind != ATTU_EXPR_CAST || e == c->array_domain_cast ||
        !array_element_domain(e->u.cast.type.name, dn, sizeof dn))
        return false;
    attu_strbuf b = { 0 };
    attu_strbuf_puts(&b, "SELECT CASE WHEN (SELECT count(\"\001e\"::");
    attu_strbuf_quote_ident(&b, dn);
    attu_strbuf_puts(&b, ") FROM unnest(NULL) AS \"\001u\"(\"\001e\")) >= 0 THEN NULL::int END");
    if (b.oom) { free(b.p); attu_error_oom(c->err); return true; }
    attu_error perr;
    attu_error_clear(&perr);
    attu_parse_result *pr = attu_parse(b.p, &perr);
    free(b.p);
    if (!pr) {
        attu_error_set(c->err, ATTU_SQLSTATE_INTERNAL, 0, "the element check of domain %s does not parse: %s", dn,
                       perr.message);
        return true;
    }
    if (attu_plan_arena_on_free(c->pa, free_parse, pr)) { attu_parse_free(pr); attu_error_oom(c->err); return true; }
    /* the template's THEN cast becomes x::d[] (e's type), unnest's
     * argument that cast too */
    const attu_ast_stmt *st = pr->n == 1 ? pr->stmts[0].stmt : NULL;
    const attu_ast_query *q = st && st->kind == ATTU_STMT_SELECT ? st->u.select.query : NULL;
    attu_ast_expr *k = q && q->kind == ATTU_QUERY_SELECT && q->u.select.nitems == 1 ? q->u.select.items[0].expr : NULL;
    attu_ast_expr *w = k && k->kind == ATTU_EXPR_CASE && k->u.case_.nwhens == 1 ? k->u.case_.whens[0].when : NULL;
    attu_ast_expr *then = k && w ? k->u.case_.whens[0].then : NULL;
    attu_ast_expr *sub = w && w->kind == ATTU_EXPR_BINARY ? w->u.binary.left : NULL;
    const attu_ast_query *sq = sub && sub->kind == ATTU_EXPR_SUBQUERY ? sub->u.subquery.query : NULL;
    attu_ast_from *f = sq && sq->kind == ATTU_QUERY_SELECT && sq->u.select.from.n == 1 ? sq->u.select.from.items[0] : NULL;
    attu_ast_expr *call = f && f->kind == ATTU_FROM_FUNCTION ? f->u.function.call : NULL;
    if (!call || call->kind != ATTU_EXPR_FUNC || call->u.func.args.n != 1 || !then || then->kind != ATTU_EXPR_CAST) {
        attu_error_set(c->err, ATTU_SQLSTATE_INTERNAL, 0, "the element check of domain %s is not the expected query", dn);
        return true;
    }
    call->u.func.args.items[0] = then;   /* (x converted: typed, as unnest needs it) */
    then->u.cast.arg = e->u.cast.arg;
    then->u.cast.type = e->u.cast.type;
    then->position = e->position;
    const attu_ast_expr *saved = c->array_domain_cast;
    c->array_domain_cast = then;
    *out = bind_expr(c, sc, k);
    c->array_domain_cast = saved;
    return true;
}
