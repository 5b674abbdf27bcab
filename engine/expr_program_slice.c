/*
 * expr_program_slice.c - slicing a program by the registers it must
 * compute (see expr_program_slice.h).
 *
 * A register may be written by several instructions (a CASE writes its
 * result under each branch's guard). The slice keeps every writer of a
 * register it needs that comes before the last read of it, which a
 * backward pass gives: walking from the end, an instruction is kept when
 * its destination is needed then, and its operands and guard become
 * needed. That keeps a superset of what matters, never less.
 */
#include "engine/expr_program_slice.h"

#include <stdlib.h>
#include <string.h>

static void need_reg(bool *need, int r) {
    if (r >= 0) need[r] = true;
}

const attu_instr *attu_program_sole_writer(const attu_expr_program *p, int r) {
    const attu_instr *w = NULL;
    for (int i = 0; i < p->ninstr; i++) {
        if (p->code[i].dst != r) continue;
        if (w) return NULL;
        w = &p->code[i];
    }
    return w && w->guard < 0 ? w : NULL;
}

int attu_program_slice(const attu_expr_program *p, const int *regs, int nregs, const bool *input_ok,
                       attu_expr_program **out, int *inputs, int *ninputs) {
    *out = NULL;
    *ninputs = 0;
    bool *need = calloc((size_t)p->nregs + 1, 1), *keep = calloc((size_t)p->ninstr + 1, 1);
    int *map = malloc(sizeof *map * ((size_t)p->nregs + 1));
    attu_type *tys = malloc(sizeof *tys * ((size_t)p->ninputs + 1));
    attu_expr_program *q = NULL;
    int rc = -1;
    if (!need || !keep || !map || !tys) goto done;
    for (int j = 0; j < nregs; j++) need_reg(need, regs[j]);
    for (int i = p->ninstr - 1; i >= 0; i--) {
        const attu_instr *in = &p->code[i];
        if (in->dst < 0 || !need[in->dst]) continue;
        keep[i] = true;
        need_reg(need, in->a); need_reg(need, in->b); need_reg(need, in->c); need_reg(need, in->d);
        need_reg(need, in->guard);
    }
    int k = 0;
    for (int i = 0; i < p->ninputs; i++) {
        map[i] = -1;
        if (!need[i]) continue;
        if (!input_ok[i]) { rc = 1; goto done; }
        inputs[k] = i;
        tys[k] = p->reg_types[i];
        map[i] = k++;
    }
    if (!(q = attu_program_new(k, tys))) goto done;
    for (int r = p->ninputs; r < p->nregs; r++) {
        map[r] = -1;
        if (need[r] && (map[r] = attu_program_reg(q, p->reg_types[r])) < 0) goto done;
    }
    /* the string pool as it is: instructions keep their imm_s */
    for (int s = 0; s < p->nstrs; s++)
        if (attu_program_add_string(q, p->strs[s], p->str_lens[s]) < 0) goto done;
    for (int i = 0; i < p->ninstr; i++) {
        if (!keep[i]) continue;
        attu_instr in = p->code[i];
        in.dst = (int16_t)map[in.dst];
        if (in.a >= 0) in.a = (int16_t)map[in.a];
        if (in.b >= 0) in.b = (int16_t)map[in.b];
        if (in.c >= 0) in.c = (int16_t)map[in.c];
        if (in.d >= 0) in.d = (int16_t)map[in.d];
        if (in.guard >= 0) in.guard = (int16_t)map[in.guard];
        if (attu_program_emit(q, in) < 0) goto done;
    }
    for (int j = 0; j < nregs; j++)
        if (attu_program_add_output(q, map[regs[j]]) < 0) goto done;
    *out = q;
    *ninputs = k;
    q = NULL;
    rc = 0;
done:
    attu_program_free(q);
    free(need); free(keep); free(map); free(tys);
    return rc;
}

attu_expr_program *attu_program_add_input(const attu_expr_program *p, attu_type t) {
    int n = p->ninputs;
    attu_type *tys = malloc(sizeof *tys * ((size_t)n + 1));
    attu_expr_program *q = NULL;
    if (!tys) return NULL;
    for (int i = 0; i < n; i++) tys[i] = p->reg_types[i];
    tys[n] = t;
    q = attu_program_new(n + 1, tys);
    free(tys);
    if (!q) return NULL;
#define SHIFTED(r) ((int16_t)((r) < n ? (r) : (r) + 1))
    for (int r = n; r < p->nregs; r++)
        if (attu_program_reg(q, p->reg_types[r]) < 0) goto fail;
    for (int s = 0; s < p->nstrs; s++)
        if (attu_program_add_string(q, p->strs[s], p->str_lens[s]) < 0) goto fail;
    for (int i = 0; i < p->ninstr; i++) {
        attu_instr in = p->code[i];
        if (in.dst >= 0) in.dst = SHIFTED(in.dst);
        if (in.a >= 0) in.a = SHIFTED(in.a);
        if (in.b >= 0) in.b = SHIFTED(in.b);
        if (in.c >= 0) in.c = SHIFTED(in.c);
        if (in.d >= 0) in.d = SHIFTED(in.d);
        if (in.guard >= 0) in.guard = SHIFTED(in.guard);
        if (attu_program_emit(q, in) < 0) goto fail;
    }
    for (int j = 0; j < p->noutputs; j++)
        if (attu_program_add_output(q, SHIFTED(p->outputs[j])) < 0) goto fail;
#undef SHIFTED
    memcpy(q->text, p->text, sizeof q->text);
    return q;
fail:
    attu_program_free(q);
    return NULL;
}
