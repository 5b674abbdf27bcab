/*
 * binder_view.c - what binding a view needs besides the binder's own
 * FROM code (binder.c, bind_view_ref): its query parsed again from the
 * catalog's text, and PostgreSQL's check against a view that reads itself.
 *
 * Why text: the catalog (engine/) cannot hold syntax trees, and a fresh
 * parse per statement gives each statement its own tree, so two sessions
 * binding one view never share mutable memory. Parsing a view's query
 * costs microseconds beside binding and running it.
 */
#include "planner/binder_internal.h"
#include "planner/parser.h"

#include <string.h>

#include "engine/view.h"

static void free_parse(void *p) { attu_parse_free(p); }

const attu_ast_query *attu_view_parse(bctx *c, const attu_view *v) {
    attu_error perr;
    attu_error_clear(&perr);
    attu_parse_result *pr = attu_parse(v->sql, &perr);
    if (!pr) {
        /* text CREATE VIEW accepted: only a damaged data directory or out
         * of memory gets here */
        if (!strcmp(perr.sqlstate, ATTU_SQLSTATE_OUT_OF_MEMORY)) attu_error_oom(c->err);
        else attu_error_set(c->err, ATTU_SQLSTATE_INTERNAL, 0, "the query of view \"%s\" no longer parses: %s",
                            v->name, perr.message);
        return NULL;
    }
    if (attu_plan_arena_on_free(c->pa, free_parse, pr)) { attu_error_oom(c->err); return NULL; }
    if (pr->n != 1 || pr->stmts[0].stmt->kind != ATTU_STMT_SELECT) {
        attu_error_set(c->err, ATTU_SQLSTATE_INTERNAL, 0, "the query of view \"%s\" is not one query", v->name);
        return NULL;
    }
    return pr->stmts[0].stmt->u.select.query;
}

bool attu_view_check_recursion(bctx *c, const attu_view *v) {
    for (const view_link *l = c->views; l; l = l->next)
        if (!strcmp(l->view->name, v->name)) {
            attu_error_set(c->err, "42P17", 0, "infinite recursion detected in rules for relation \"%s\"", v->name);
            return false;
        }
    return true;
}
