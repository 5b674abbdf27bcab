/*
 * regexp_setof_bind.c - binding PostgreSQL 15's regular-expression
 * functions that give arrays and sets: regexp_match and
 * regexp_split_to_array (text[]), regexp_matches (setof text[]) and
 * regexp_split_to_table (setof text), each (string, pattern [, flags]).
 *
 * The sets are series, as unnest's (planner/array_bind.c): k = 1 .. the
 * number of rows, and each row's value computed from k. regexp_matches
 * counts its matches (ATTU_OP_REGEXP_MATCH aux 1: every one with the flag
 * g, else the first) and row k is the k-th match (aux 2);
 * regexp_split_to_table counts its pieces (ATTU_OP_REGEXP_SPLIT aux 3) and
 * row k is the k-th piece (aux 2); a NULL argument gives no rows. The
 * engine goes on from row k's place for row k + 1 (engine/
 * regexp_functions.c), so a string's rows cost one walk over it. In the select list the series becomes
 * PostgreSQL's ProjectSet, in FROM a function scan (planner/srf.c), which
 * takes WITH ORDINALITY, LATERAL and ROWS FROM as for the other set
 * functions. The run-time work is engine/regexp_functions.c's, host only.
 */
#include "planner/binder_internal.h"

#include <string.h>

/* 1: regexp_matches, 2: regexp_split_to_table, 0: neither. */
static int srf_kind(const char *name) {
    return !strcmp(name, "regexp_matches") ? 1 : !strcmp(name, "regexp_split_to_table") ? 2 : 0;
}

bool attu_regexp_srf_name(const char *name) { return srf_kind(name) != 0; }

/* The arguments (string, pattern [, flags]) as text: 42883 for another
 * count or type, as PostgreSQL finds no such function. The pattern is
 * then ATTU_OP_REGEXP_FLAGS's flags-and-pattern operand; *str the string. */
static attu_bexpr *pattern_operand(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n, attu_bexpr **str) {
    int pos = e->position;
    if (n < 2 || n > 3 || e->u.func.star || e->u.func.distinct) return attu_no_function(c, e, args, n);
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT);
    for (int i = 0; i < n; i++) {
        attu_type t = args[i]->type;
        bool texty = t.id == ATTU_TYPE_UNKNOWN ||
                     (t.id == ATTU_TYPE_TEXT && !attu_type_is_typed_text(t) && !attu_type_is_array(t));
        if (!texty) return attu_no_function(c, e, args, n);
    }
    for (int i = 0; i < n; i++)
        if (!(args[i] = coerce(c, args[i], txt, false, pos))) return NULL;
    attu_bexpr *flags = n == 3 ? args[2] : attu_bx_new(c->pa, BX_CONST, txt, pos);
    if (!flags || (n < 3 && !(flags->s = attu_pstrdup(c->pa, "", 0)))) { attu_error_oom(c->err); return NULL; }
    *str = args[0];
    return mk_call(c, ATTU_OP_REGEXP_FLAGS, txt, pos, 2, flags, args[1], NULL, NULL);
}

static attu_type text_array(void) { return attu_type_array_of(attu_type_make(ATTU_TYPE_TEXT)); }

/* regexp_split_to_array(s, p [, f]) */
static attu_bexpr *split_array(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n) {
    attu_bexpr *str, *pat = pattern_operand(c, e, args, n, &str);
    return pat ? mk_call(c, ATTU_OP_REGEXP_SPLIT, text_array(), e->position, 2, str, pat, NULL, NULL) : NULL;
}

attu_bexpr *attu_bind_regexp_array(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n) {
    if (!strcmp(e->u.func.name, "regexp_split_to_array")) return split_array(c, e, args, n);
    attu_bexpr *str, *pat = pattern_operand(c, e, args, n, &str);
    return pat ? mk_call(c, ATTU_OP_REGEXP_MATCH, text_array(), e->position, 2, str, pat, NULL, NULL) : NULL;
}

attu_bexpr *attu_regexp_srf_series(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n, attu_bexpr **src) {
    int pos = e->position;
    bool split = srf_kind(e->u.func.name) == 2;
    attu_bexpr *str, *pat = pattern_operand(c, e, args, n, &str);
    attu_type i4 = attu_type_make(ATTU_TYPE_INT32);
    attu_bexpr *count = pat ? mk_call(c, split ? ATTU_OP_REGEXP_SPLIT : ATTU_OP_REGEXP_MATCH, i4, pos, 2, str, pat,
                                      NULL, NULL) : NULL;
    if (!count) return NULL;
    count->aux = split ? 3 : 1;
    *src = count;
    /* generate_series(1, count): no rows for a NULL count (a NULL argument) */
    attu_bexpr *x = attu_bx_new(c->pa, BX_SRF, i4, pos);
    if (!x) { attu_error_oom(c->err); return NULL; }
    x->nargs = 3;
    x->args[0] = mk_const_int(c, i4, 1);
    x->args[1] = count;
    x->args[2] = mk_const_int(c, i4, 1);
    return x->args[0] && x->args[2] ? x : NULL;
}

attu_bexpr *attu_regexp_srf_element(bctx *c, attu_bexpr *src, attu_bexpr *k, int pos) {
    /* item k of the count's string and pattern */
    attu_type t = src->op == ATTU_OP_REGEXP_SPLIT ? attu_type_make(ATTU_TYPE_TEXT) : text_array();
    attu_bexpr *x = mk_call(c, src->op, t, pos, 3, src->args[0], src->args[1], k, NULL);
    if (x) x->aux = 2;
    return x;
}

attu_bexpr *attu_bind_regexp_srf(bctx *c, const scope *sc, const attu_ast_expr *e) {
    int pos = e->position;
    if (!attu_srf_allowed_here(c, pos)) return NULL;
    int n = e->u.func.args.n;
    attu_bexpr *args[100] = { 0 };
    if (n > 100) n = 100;
    for (int i = 0; i < n; i++) if (!(args[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
    if (e->u.func.over) {
        attu_error_set(c->err, ATTU_SQLSTATE_UNDEFINED_FUNCTION, pos, "function %s is not a window function",
                       e->u.func.name);
        return NULL;
    }
    attu_bexpr *src, *x = attu_regexp_srf_series(c, e, args, n, &src);
    return x ? attu_regexp_srf_element(c, src, x, pos) : NULL;
}
