/* logical_plan.c - the plan arena and small constructors (logical_plan.h). */
#include "planner/logical_plan.h"
#include "engine/uuid.h"

#include <stdlib.h>
#include <string.h>

typedef struct pa_block { struct pa_block *next; size_t used, cap; _Alignas(16) char data[]; } pa_block;
typedef struct pa_cleanup { struct pa_cleanup *next; void (*fn)(void *); void *arg; } pa_cleanup;
struct attu_plan_arena { pa_block *head; pa_cleanup *cleanups; };

attu_plan_arena *attu_plan_arena_new(void) { return calloc(1, sizeof(attu_plan_arena)); }

void attu_plan_arena_free(attu_plan_arena *a) {
    if (!a) return;
    while (a->cleanups) {
        pa_cleanup *k = a->cleanups;
        a->cleanups = k->next;
        k->fn(k->arg);
        free(k);
    }
    while (a->head) { pa_block *n = a->head->next; free(a->head); a->head = n; }
    free(a);
}

void *attu_palloc(attu_plan_arena *a, size_t n) {
    n = (n + 15) & ~(size_t)15;
    if (!a->head || a->head->cap - a->head->used < n) {
        size_t cap = n > 32768 ? n : 32768;
        pa_block *b = malloc(sizeof *b + cap);
        if (!b) return NULL;
        b->cap = cap; b->used = 0; b->next = a->head; a->head = b;
    }
    void *p = a->head->data + a->head->used;
    a->head->used += n;
    memset(p, 0, n);
    return p;
}

int attu_plan_arena_on_free(attu_plan_arena *a, void (*fn)(void *), void *arg) {
    pa_cleanup *k = malloc(sizeof *k);
    if (!k) { fn(arg); return -1; }
    *k = (pa_cleanup){ a->cleanups, fn, arg };
    a->cleanups = k;
    return 0;
}

char *attu_pstrdup(attu_plan_arena *a, const char *s, size_t n) {
    char *c = attu_palloc(a, n + 1);
    if (c) { if (n) memcpy(c, s, n); c[n] = 0; }
    return c;
}

attu_bexpr *attu_bx_new(attu_plan_arena *a, attu_bexpr_kind k, attu_type t, int pos) {
    attu_bexpr *e = attu_palloc(a, sizeof *e);
    if (!e) return NULL;
    e->kind = k; e->type = t; e->position = pos;
    return e;
}

attu_bexpr *attu_bx_col(attu_plan_arena *a, int col, attu_type t) {
    attu_bexpr *e = attu_bx_new(a, BX_COL, t, 0);
    if (e) e->col = col;
    return e;
}

attu_lplan *attu_lp_new(attu_plan_arena *a, attu_lp_kind k, int ncols) {
    attu_lplan *p = attu_palloc(a, sizeof *p);
    if (!p) return NULL;
    p->kind = k;
    p->ncols = ncols;
    p->types = attu_palloc(a, sizeof(attu_type) * (size_t)(ncols + 1));
    p->names = attu_palloc(a, sizeof(char *) * (size_t)(ncols + 1));
    p->limit = -1;
    p->topk_limit = -1;
    p->rowid_col = -1;
    if (!p->types || !p->names) return NULL;
    return p;
}

/* written: two calls of a volatile function (random(), gen_random_uuid())
 * with equal arguments are one expression as written, as PostgreSQL's
 * equal() sees them (an ORDER BY item names the select-list item that
 * reads the same); otherwise they are two values. */
static bool bx_equal(const attu_bexpr *x, const attu_bexpr *y, bool written) {
    if (x == y) return true;
    if (!x || !y || x->kind != y->kind || !attu_type_equal(x->type, y->type)) return false;
    /* attu_type_equal sees one TEXT in text, varchar(n) and char(n), but
     * their values differ ('ab'::char(4) is padded, 'ab' is not): two
     * such expressions are not one (lower.c's memo would share them) */
    if (x->type.id == ATTU_TYPE_TEXT && (x->type.precision != y->type.precision || x->type.scale != y->type.scale))
        return false;
    switch (x->kind) {
    case BX_CONST:
        if (x->is_null || y->is_null) return x->is_null == y->is_null;
        if (x->s || y->s) return x->s && y->s && x->slen == y->slen && !memcmp(x->s, y->s, x->slen);
        return x->i == y->i && memcmp(&x->f, &y->f, sizeof x->f) == 0;
    case BX_COL: case BX_PARAM: return x->col == y->col;
    case BX_SRF:
        /* two equal calls are one series: PostgreSQL runs them in
         * lockstep, so sharing one column gives the same rows */
        if (x->aux != y->aux || x->i != y->i || x->imm != y->imm) return false;
        for (int i = 0; i < 3; i++) if (!bx_equal(x->args[i], y->args[i], written)) return false;
        return true;
    case BX_CALL:
        if (x->op != y->op || x->nargs != y->nargs || x->aux != y->aux || x->imm != y->imm) return false;
        /* two calls of gen_random_uuid() or random() are two values (volatile) */
        if (!written && ((x->op == ATTU_OP_UUID && x->aux == ATTU_UUID_RANDOM) || x->op == ATTU_OP_RANDOM)) return false;
        for (int i = 0; i < x->nargs; i++) if (!bx_equal(x->args[i], y->args[i], written)) return false;
        return true;
    case BX_CASE:
        if (x->nwhens != y->nwhens || !bx_equal(x->else_, y->else_, written)) return false;
        for (int i = 0; i < x->nwhens; i++)
            if (!bx_equal(x->whens[i], y->whens[i], written) || !bx_equal(x->thens[i], y->thens[i], written)) return false;
        return true;
    case BX_AGG: case BX_WINDOW:
        if (x->agg != y->agg || x->nargs != y->nargs || x->imm != y->imm || x->npart != y->npart || x->norder != y->norder) return false;
        if (x->kind == BX_WINDOW && (x->aux != y->aux || memcmp(x->frame_kind, y->frame_kind, sizeof x->frame_kind) ||
                                     memcmp(x->frame_off, y->frame_off, sizeof x->frame_off) ||
                                     memcmp(x->frame_offf, y->frame_offf, sizeof x->frame_offf) ||
                                     memcmp(x->frame_off_scale, y->frame_off_scale, sizeof x->frame_off_scale) ||
                                     memcmp(x->frame_off_months, y->frame_off_months, sizeof x->frame_off_months) ||
                                     memcmp(x->frame_off_days, y->frame_off_days, sizeof x->frame_off_days) ||
                                     x->frame_off_zone != y->frame_off_zone ||
                                     x->frame_excl != y->frame_excl)) return false;   /* frames */
        for (int i = 0; i < x->nargs; i++) if (!bx_equal(x->args[i], y->args[i], written)) return false;
        for (int i = 0; i < x->npart; i++) if (!bx_equal(x->part[i], y->part[i], written)) return false;
        for (int i = 0; i < x->norder; i++)
            if (!bx_equal(x->order[i].expr, y->order[i].expr, written) || x->order[i].desc != y->order[i].desc ||
                x->order[i].nulls_first != y->order[i].nulls_first) return false;
        return true;
    }
    return false;
}

bool attu_bx_equal(const attu_bexpr *x, const attu_bexpr *y) { return bx_equal(x, y, false); }

bool attu_bx_equal_written(const attu_bexpr *x, const attu_bexpr *y) { return bx_equal(x, y, true); }

bool attu_bx_reads_param(const attu_bexpr *e) {
    if (!e) return false;
    if (e->kind == BX_PARAM) return true;
    for (int i = 0; i < e->nargs; i++) if (attu_bx_reads_param(e->args[i])) return true;
    for (int i = 0; i < e->nwhens; i++) if (attu_bx_reads_param(e->whens[i]) || attu_bx_reads_param(e->thens[i])) return true;
    if (attu_bx_reads_param(e->else_)) return true;
    for (int i = 0; i < e->npart; i++) if (attu_bx_reads_param(e->part[i])) return true;
    for (int i = 0; i < e->norder; i++) if (attu_bx_reads_param(e->order[i].expr)) return true;
    return false;
}
