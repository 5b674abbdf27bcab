/*
 * format_bind.c - binding format(formatstr text, VARIADIC "any") (engine/
 * format_function.h). PostgreSQL prints each argument with its type's
 * output function when a conversion takes it; here each is converted to
 * that text when bound, as concat's arguments are (a boolean is t or f, a
 * char(n) keeps its padding), and the texts travel as one text[] (NULL
 * elements for NULL arguments), so one instruction takes any number of
 * arguments of any types.
 */
#include "planner/binder_internal.h"

#include "engine/array.h"
#include "engine/format_function.h"
#include "planner/lexer.h"

attu_bexpr *attu_bind_format(bctx *c, const attu_ast_expr *e, attu_bexpr **args, int n) {
    int pos = e->position;
    if (n < 1 || e->u.func.star || e->u.func.distinct) return attu_no_function(c, e, args, n);
    attu_type txt = attu_type_make(ATTU_TYPE_TEXT), ta = attu_type_array_of(txt), ft = args[0]->type;
    /* the format string is text (varchar and char(n) cast to it) */
    if (!(ft.id == ATTU_TYPE_UNKNOWN || (ft.id == ATTU_TYPE_TEXT && !attu_type_is_typed_text(ft) && !attu_type_is_array(ft))))
        return attu_no_function(c, e, args, n);
    attu_bexpr *fmt = coerce(c, args[0], txt, false, pos);
    if (!fmt) return NULL;
    if (e->u.func.variadic) {
        /* format(f, VARIADIC arr): arr's elements are the arguments (every
         * dimension's, in storage order), printed by the engine with their
         * type's output function; a NULL arr is none */
        if (n != 2) return attu_no_function(c, e, args, n);
        attu_format_set_keyword_test(attu_keyword_needs_quotes);
        return mk_call(c, ATTU_OP_FORMAT, txt, pos, 2, fmt, args[1], NULL, NULL);
    }
    /* %I's keyword test is the lexer's table (format_function.h) */
    attu_format_set_keyword_test(attu_keyword_needs_quotes);
    attu_bexpr *acc = attu_bx_new(c->pa, BX_CONST, ta, pos);
    if (!acc || !(acc->s = attu_pstrdup(c->pa, "", 0))) { attu_error_oom(c->err); return NULL; }
    acc->slen = 0;
    for (int i = 1; i < n && acc; i++) {
        attu_bexpr *x = attu_output_text_arg(c, args[i], pos);
        if (!x) return NULL;
        if ((acc = mk_call(c, ATTU_OP_ARRAY, ta, pos, 2, acc, x, NULL, NULL))) acc->aux = ATTU_ARR_APPEND;
    }
    return acc ? mk_call(c, ATTU_OP_FORMAT, txt, pos, 2, fmt, acc, NULL, NULL) : NULL;
}
