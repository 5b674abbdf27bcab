/*
 * bitwise_bind.c - binding PostgreSQL's bitwise operators on integers:
 * a & b, a | b, a # b (and, or, xor), ~a (not), a << b and a >> b
 * (shifts).
 *
 * The parser writes each as a call of an internal name (" &", " |", " #",
 * " <<", " >>", " ~": planner/ast_build.c), resolved here as PostgreSQL's
 * operator lookup does among int2, int4 and int8 forms: & | # take both
 * operands to the wider integer type (an untyped literal takes the
 * other's), the shifts keep the left operand's type with an int4 count
 * (a smallint count widens, a bigint one has no operator), ~ keeps its
 * operand's. Two untyped literals, or ~ of one, are 42725 (PostgreSQL's
 * bit type has the same operators); any other operand type is 42883. The
 * run-time work is engine/expr_program.c's ATTU_OP_BITAND_I ..
 * ATTU_OP_SHR_I, host only.
 */
#include "planner/binder_internal.h"

#include <string.h>

bool attu_bitwise_operator_name(const char *name) {
    return !strcmp(name, " &") || !strcmp(name, " |") || !strcmp(name, " #") || !strcmp(name, " <<") ||
           !strcmp(name, " >>") || !strcmp(name, " ~");
}

static bool shift_name(const char *op) { return !strcmp(op, "<<") || !strcmp(op, ">>"); }

static bool integer(attu_type t) {
    return !attu_type_is_array(t) && (t.id == ATTU_TYPE_INT16 || t.id == ATTU_TYPE_INT32 || t.id == ATTU_TYPE_INT64);
}

static attu_bexpr *no_operator(bctx *c, const char *op, const attu_bexpr *l, const attu_bexpr *r, int pos,
                               const char *sqlstate, const char *what) {
    char b1[64], b2[64];
    if (l)
        attu_error_set(c->err, sqlstate, pos, "operator %s: %s %s %s", what, tname(l->type, b1), op, tname(r->type, b2));
    else
        attu_error_set(c->err, sqlstate, pos, "operator %s: %s %s", what, op, tname(r->type, b2));
    return NULL;
}

attu_bexpr *attu_bind_bitwise(bctx *c, const scope *sc, const attu_ast_expr *e) {
    const char *op = e->u.func.name + 1;
    const int pos = e->position, n = e->u.func.args.n;
    attu_bexpr *a[2] = { NULL, NULL };
    for (int i = 0; i < n && i < 2; i++)
        if (!(a[i] = bind_expr(c, sc, e->u.func.args.items[i]))) return NULL;
    if (n == 1) {   /* ~a */
        if (a[0]->type.id == ATTU_TYPE_UNKNOWN) return no_operator(c, op, NULL, a[0], pos, "42725", "is not unique");
        if (!integer(a[0]->type)) return no_operator(c, op, NULL, a[0], pos, ATTU_SQLSTATE_UNDEFINED_FUNCTION, "does not exist");
        return mk_call(c, ATTU_OP_BITNOT_I, attu_type_make(a[0]->type.id), pos, 1, a[0], NULL, NULL, NULL);
    }
    attu_bexpr *l = a[0], *r = a[1];
    if (shift_name(op) && attu_range_operands(l, r)) return attu_range_operator(c, op, l, r, pos);   /* range << range */
    const bool lu = l->type.id == ATTU_TYPE_UNKNOWN, ru = r->type.id == ATTU_TYPE_UNKNOWN;
    if (lu && ru) return no_operator(c, op, l, r, pos, "42725", "is not unique");
    const bool shift = op[0] == '<' || op[0] == '>';
    attu_type t;
    if (shift) {
        /* int2 / int4 / int8 << int4 */
        if ((!lu && !integer(l->type)) || (!ru && r->type.id != ATTU_TYPE_INT16 && r->type.id != ATTU_TYPE_INT32) ||
            (!ru && attu_type_is_array(r->type)))
            return no_operator(c, op, l, r, pos, ATTU_SQLSTATE_UNDEFINED_FUNCTION, "does not exist");
        t = attu_type_make(lu ? ATTU_TYPE_INT32 : l->type.id);
        if (!(l = coerce(c, l, t, false, pos)) || !(r = coerce(c, r, attu_type_make(ATTU_TYPE_INT32), false, pos)))
            return NULL;
        return mk_call(c, op[0] == '<' ? ATTU_OP_SHL_I : ATTU_OP_SHR_I, t, pos, 2, l, r, NULL, NULL);
    }
    if ((!lu && !integer(l->type)) || (!ru && !integer(r->type)))
        return no_operator(c, op, l, r, pos, ATTU_SQLSTATE_UNDEFINED_FUNCTION, "does not exist");
    attu_type_id w = lu ? r->type.id : ru ? l->type.id
                   : (l->type.id == ATTU_TYPE_INT64 || r->type.id == ATTU_TYPE_INT64) ? ATTU_TYPE_INT64
                   : (l->type.id == ATTU_TYPE_INT32 || r->type.id == ATTU_TYPE_INT32) ? ATTU_TYPE_INT32 : ATTU_TYPE_INT16;
    t = attu_type_make(w);
    if (!(l = coerce(c, l, t, false, pos)) || !(r = coerce(c, r, t, false, pos))) return NULL;
    attu_opcode o = op[0] == '&' ? ATTU_OP_BITAND_I : op[0] == '|' ? ATTU_OP_BITOR_I : ATTU_OP_BITXOR_I;
    return mk_call(c, o, t, pos, 2, l, r, NULL, NULL);
}
