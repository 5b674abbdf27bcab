/*
 * setting_functions.c - current_setting(name [, missing_ok]).
 *
 * Drivers and ORMs ask the server's settings through this function
 * (current_setting('server_version_num'), current_setting('TimeZone')).
 * A setting is session state the db layer keeps (db/db_settings.c, the
 * values SHOW gives), so the call is answered when the query is bound and
 * becomes a text constant: both backends run it as any constant. The name
 * is folded to lower case as PostgreSQL folds a setting's name; an unknown
 * one is 42704, or NULL with missing_ok. The arguments must be constants
 * here (0A000 otherwise), where PostgreSQL also takes a column's value.
 */
#include "planner/binder_internal.h"

#include <string.h>

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
