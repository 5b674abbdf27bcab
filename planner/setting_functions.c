/*
 * setting_functions.c - current_setting(name [, missing_ok]) and
 * set_config(name, value, is_local).
 *
 * Drivers and ORMs ask the server's settings through this function
 * (current_setting('server_version_num'), current_setting('TimeZone')).
 * A setting is session state the db layer keeps (db/db_settings.c, the
 * values SHOW gives), so the call is answered when the query is bound and
 * becomes a text constant: both backends run it as any constant. The name
 * is folded to lower case as PostgreSQL folds a setting's name; an unknown
 * one is 42704, or NULL with missing_ok. A name that is not a constant
 * (psql's \dconfig asks current_setting(s.name) over pg_settings) becomes
 * a CASE over the names of the settings attu has and the session's
 * dotted ones, with their values at bind time: there an unknown name is
 * NULL, not 42704.
 *
 * set_config(name, value, is_local) changes a setting when the query is
 * bound (the db layer's SET, through attu_bind_params.set_config) and
 * becomes its new value as a constant. So it runs once, as a SELECT
 * without FROM runs it; over the rows of a query it is 0A000 (PostgreSQL
 * calls it per row). Binding goes left to right, so a current_setting of
 * the same name after it in the select list sees the new value and one
 * before it the old one, as PostgreSQL evaluates them; a current_setting
 * in a WHERE or a subquery bound earlier may differ.
 */
#include "planner/binder_internal.h"

#include "engine/setting_catalog.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static attu_ast_expr *ast_new(bctx *c, attu_ast_expr_kind k, int pos, int depth) {
    attu_ast_expr *x = attu_palloc(c->pa, sizeof *x);
    if (!x) { attu_error_oom(c->err); return NULL; }
    x->kind = k;
    x->position = pos;
    x->depth = depth;
    return x;
}

static attu_ast_expr *ast_string(bctx *c, const char *s, int pos) {
    attu_ast_expr *x = ast_new(c, ATTU_EXPR_LITERAL, pos, 1);
    if (!x) return NULL;
    x->u.literal.kind = s ? ATTU_LIT_STRING : ATTU_LIT_NULL;
    x->u.literal.text = attu_pstrdup(c->pa, s ? s : "null", strlen(s ? s : "null"));
    x->u.literal.len = strlen(s ? s : "null");
    if (!x->u.literal.text) { attu_error_oom(c->err); return NULL; }
    return x;
}

/* current_setting(expr): CASE lower(expr) WHEN 'name' THEN 'value' ...
 * END over the settings attu has (their values now), bound in scope. */
static attu_bexpr *current_setting_of_column(bctx *c, const scope *sc, const attu_ast_expr *e) {
    const attu_ast_expr *arg = e->u.func.args.items[0];
    attu_ast_expr *low = ast_new(c, ATTU_EXPR_FUNC, arg->position, arg->depth + 1);
    attu_ast_expr **items = attu_palloc(c->pa, sizeof *items);
    const attu_bind_params *bp = c->params;
    int ncustom = 0;
    while (bp && bp->setting_custom && bp->setting_custom(bp->setting_ctx, ncustom)) ncustom++;
    attu_ast_case_when *whens = attu_palloc(c->pa, sizeof *whens * (attu_nsettings + (size_t)ncustom));
    attu_ast_expr *cs = ast_new(c, ATTU_EXPR_CASE, e->position, arg->depth + 2);
    if (!low || !items || !whens || !cs) { attu_error_oom(c->err); return NULL; }
    low->u.func.name = attu_pstrdup(c->pa, "lower", 5);
    if (!low->u.func.name) { attu_error_oom(c->err); return NULL; }
    items[0] = (attu_ast_expr *)arg;
    low->u.func.args.items = items;
    low->u.func.args.n = 1;
    int n = 0;
    for (size_t i = 0; i < attu_nsettings; i++) {
        char lower[64];
        size_t k = 0;
        for (; attu_settings[i].name[k] && k + 1 < sizeof lower; k++)
            lower[k] = (char)tolower((unsigned char)attu_settings[i].name[k]);
        lower[k] = 0;
        const char *v = c->params && c->params->setting ? c->params->setting(c->params->setting_ctx, lower) : NULL;
        if (!v) continue;
        if (!(whens[n].when = ast_string(c, lower, e->position)) || !(whens[n].then = ast_string(c, v, e->position)))
            return NULL;
        n++;
    }
    /* the session's dotted names, which are stored in lower case */
    for (int i = 0; i < ncustom; i++) {
        const char *name = bp->setting_custom(bp->setting_ctx, i);
        const char *v = bp->setting ? bp->setting(bp->setting_ctx, name) : NULL;
        if (!v) continue;
        if (!(whens[n].when = ast_string(c, name, e->position)) || !(whens[n].then = ast_string(c, v, e->position)))
            return NULL;
        n++;
    }
    if (!n) return mk_const_null(c, attu_type_make(ATTU_TYPE_TEXT));
    cs->u.case_.operand = low;
    cs->u.case_.whens = whens;
    cs->u.case_.nwhens = n;
    return bind_expr(c, sc, cs);
}

attu_bexpr *attu_bind_current_setting(bctx *c, const scope *sc, const attu_ast_expr *e) {
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT), boolean = attu_type_make(ATTU_TYPE_BOOL);
    int n = e->u.func.args.n;
    attu_bexpr *args[2] = { 0 };
    bool fits = (n == 1 || n == 2) && !e->u.func.star && !e->u.func.distinct && !e->u.func.order_by.n &&
                !e->u.func.filter && !e->u.func.over;
    for (int i = 0; i < n && i < 2; i++) {
        if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
        attu_type_id t = args[i]->type.id;
        fits &= !attu_type_is_array(args[i]->type) &&
                (t == ATTU_TYPE_UNKNOWN || (i == 0 ? t == ATTU_TYPE_TEXT : t == ATTU_TYPE_BOOL));
    }
    if (!fits) return attu_no_function(c, e, args, n < 2 ? n : 2);
    for (int i = 0; i < n; i++) {
        if (!(args[i] = coerce(c, args[i], i == 0 ? txt : boolean, false, e->u.func.args.items[i]->position))) return NULL;
        if (i == 0 && args[i]->kind != BX_CONST && (n == 1 || args[1]->kind == BX_CONST))
            return current_setting_of_column(c, sc, e);
        if (args[i]->kind != BX_CONST) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->u.func.args.items[i]->position,
                           "the arguments of current_setting() must be constants in attu");
            return NULL;
        }
    }
    bool missing_ok = n == 2 && !args[1]->is_null && args[1]->i != 0;
    if (args[0]->is_null || (n == 2 && args[1]->is_null)) return mk_const_null(c, txt);   /* strict */
    size_t len = args[0]->s ? args[0]->slen : 0;
    char *name = attu_pstrdup(c->pa, args[0]->s ? args[0]->s : "", len);
    if (!name) { attu_error_oom(c->err); return NULL; }
    for (char *p = name; *p; p++)
        if (*p >= 'A' && *p <= 'Z') *p = (char)(*p - 'A' + 'a');
    const char *v = c->params && c->params->setting ? c->params->setting(c->params->setting_ctx, name) : NULL;
    if (!v) {
        if (missing_ok) return mk_const_null(c, txt);
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_OBJECT, 0, "unrecognized configuration parameter \"%s\"", name);
        return NULL;
    }
    attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, txt, e->position);
    if (!k || !(k->s = attu_pstrdup(c->pa, v, strlen(v)))) { attu_error_oom(c->err); return NULL; }
    k->slen = strlen(v);
    return k;
}

attu_bexpr *attu_bind_set_config(bctx *c, const scope *sc, const attu_ast_expr *e) {
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT), boolean = attu_type_make(ATTU_TYPE_BOOL);
    int n = e->u.func.args.n;
    attu_bexpr *args[3] = { 0 };
    bool fits = n == 3 && !e->u.func.star && !e->u.func.distinct && !e->u.func.order_by.n && !e->u.func.filter &&
                !e->u.func.over;
    for (int i = 0; i < n && i < 3; i++) {
        if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
        attu_type_id t = args[i]->type.id;
        fits &= !attu_type_is_array(args[i]->type) &&
                (t == ATTU_TYPE_UNKNOWN || (i < 2 ? t == ATTU_TYPE_TEXT : t == ATTU_TYPE_BOOL));
    }
    if (!fits) return attu_no_function(c, e, args, n < 3 ? n : 3);
    for (int i = 0; i < 3; i++) {
        if (!(args[i] = coerce(c, args[i], i < 2 ? txt : boolean, false, e->u.func.args.items[i]->position))) return NULL;
        if (args[i]->kind != BX_CONST) {
            attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->u.func.args.items[i]->position,
                           "the arguments of set_config() must be constants in attu");
            return NULL;
        }
    }
    if ((sc && sc->n > 0) || (c->outer && c->outer->n > 0)) {
        attu_error_set(c->err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, e->position,
                       "set_config() over the rows of a query is not supported: attu calls it once, in a SELECT "
                       "without FROM");
        return NULL;
    }
    /* (not strict: a NULL value resets, a NULL is_local is false) */
    if (args[0]->is_null) {
        attu_error_set(c->err, "22004", 0, "SET requires parameter name");
        return NULL;
    }
    char *name = attu_pstrdup(c->pa, args[0]->s ? args[0]->s : "", args[0]->s ? args[0]->slen : 0);
    const char *value = NULL;
    if (!args[1]->is_null && !(value = attu_pstrdup(c->pa, args[1]->s ? args[1]->s : "", args[1]->s ? args[1]->slen : 0)))
        name = NULL;
    if (!name) { attu_error_oom(c->err); return NULL; }
    for (char *p = name; *p; p++) *p = (char)tolower((unsigned char)*p);
    bool is_local = !args[2]->is_null && args[2]->i != 0;
    char *out = NULL;
    if (c->params && c->params->set_config) {
        bool apply = !c->params->no_side_effects && !c->params->describe_only;
        if (c->params->set_config(c->params->setting_ctx, name, value, is_local, apply, &out, c->err)) return NULL;
    }
    const char *shown = out ? out : value ? value : "";
    attu_bexpr *k = attu_bx_new(c->pa, BX_CONST, txt, e->position);
    if (k) k->s = attu_pstrdup(c->pa, shown, strlen(shown));
    if (k && k->s) k->slen = strlen(shown);
    free(out);
    if (!k || !k->s) { attu_error_oom(c->err); return NULL; }
    return k;
}
