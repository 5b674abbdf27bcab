/*
 * selectivity.c - measured selectivity of a leaf's filters (see
 * selectivity.h).
 *
 * Each conjunct is judged alone and the shares multiplied (independence),
 * so `d_year >= 1992 AND d_year <= 1997` is measured as two ranges whose
 * product is close to the truth, where a fixed 1/3 per conjunct would call
 * it 1/9. A NULL comparison counts as not kept, as WHERE does.
 */
#include "planner/selectivity.h"

#include <string.h>

#include "engine/column.h"
#include "engine/expr_program.h"
#include "engine/table.h"

#define SAMPLE_ROWS 2048

/* A value read for one sample row: integer, float or text. */
typedef struct sval {
    int         null;
    int64_t     i;
    double      f;
    const char *s;
    size_t      len;
} sval;

/* The table column behind output column `col` of node (through filters and
 * plain column projections), or NULL. */
static const attu_column *base_col(const attu_lplan *p, int col) {
    while (p) {
        switch (p->kind) {
        case LP_SCAN:
            if (col < 0 || col >= p->ncols || p->cols[col] >= p->table->ncols) return NULL;
            return p->table->cols[p->cols[col]];
        case LP_FILTER: p = p->left; break;
        case LP_PROJECT:
            if (col < 0 || col >= p->ncols || !p->exprs[col] || p->exprs[col]->kind != BX_COL) return NULL;
            col = p->exprs[col]->col;
            p = p->left;
            break;
        default: return NULL;
        }
    }
    return NULL;
}

/* Reads e (a column, a constant, or an int -> int / int -> float cast of a
 * column) at row; 0, or -1 when e is not of those forms. */
static int value(const attu_bexpr *e, const attu_lplan *node, size_t row, attu_mclass want, sval *v) {
    memset(v, 0, sizeof *v);
    if (e->kind == BX_CONST) {
        v->null = e->is_null;
        v->i = e->i; v->f = e->f; v->s = e->s; v->len = e->slen;
        if (want == ATTU_MC_FLOAT && attu_type_mclass(e->type.id) != ATTU_MC_FLOAT) v->f = (double)e->i;
        return 0;
    }
    if (e->kind == BX_CALL && (e->op == ATTU_OP_CAST_I_I || e->op == ATTU_OP_CAST_I_F) && e->nargs == 1) {
        if (value(e->args[0], node, row, ATTU_MC_INT, v)) return -1;
        if (e->op == ATTU_OP_CAST_I_F) v->f = (double)v->i;
        return 0;
    }
    if (e->kind != BX_COL) return -1;
    const attu_column *c = base_col(node, e->col);
    if (!c || row >= c->length) return -1;
    v->null = attu_column_is_null(c, row);
    switch (c->type.id) {
    case ATTU_TYPE_BOOL: v->i = ((const uint8_t *)c->data)[row]; break;
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: v->i = ((const int32_t *)c->data)[row]; break;
    case ATTU_TYPE_INT64: case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIMESTAMPTZ: case ATTU_TYPE_TIME: case ATTU_TYPE_TIMETZ: v->i = ((const int64_t *)c->data)[row]; break;
    case ATTU_TYPE_FLOAT32: v->f = ((const float *)c->data)[row]; break;
    case ATTU_TYPE_FLOAT64: v->f = ((const double *)c->data)[row]; break;
    case ATTU_TYPE_TEXT: {
        int32_t code = ((const int32_t *)c->data)[row];
        if (v->null || !c->dict || code < 0 || code >= c->dict->count) { v->s = ""; break; }
        v->s = attu_dictionary_get(c->dict, code, &v->len);
        break;
    }
    default: return -1;   /* DECIMAL scales, unknown types: not judged */
    }
    if (want == ATTU_MC_FLOAT && attu_type_mclass(c->type.id) != ATTU_MC_FLOAT) v->f = (double)v->i;
    return 0;
}

static int cmp_text(const sval *a, const sval *b) {
    size_t n = a->len < b->len ? a->len : b->len;
    int c = n ? memcmp(a->s, b->s, n) : 0;
    if (c) return c < 0 ? -1 : 1;
    return (a->len > b->len) - (a->len < b->len);
}

/* 1 TRUE, 0 FALSE, 2 NULL at row; -1 when e is not a judged form. */
static int truth(const attu_bexpr *e, const attu_lplan *node, size_t row) {
    if (e->kind != BX_CALL) return -1;
    if (e->op == ATTU_OP_AND || e->op == ATTU_OP_OR) {
        int a = truth(e->args[0], node, row), b = truth(e->args[1], node, row);
        if (a < 0 || b < 0) return -1;
        if (e->op == ATTU_OP_AND) return (a == 0 || b == 0) ? 0 : (a == 2 || b == 2) ? 2 : 1;
        return (a == 1 || b == 1) ? 1 : (a == 2 || b == 2) ? 2 : 0;
    }
    if (e->op == ATTU_OP_NOT) {
        int a = truth(e->args[0], node, row);
        return a < 0 ? -1 : a == 2 ? 2 : !a;
    }
    attu_mclass mc;
    int base;
    if (e->op >= ATTU_OP_EQ_I && e->op <= ATTU_OP_GE_I) { mc = ATTU_MC_INT; base = ATTU_OP_EQ_I; }
    else if (e->op >= ATTU_OP_EQ_F && e->op <= ATTU_OP_GE_F) { mc = ATTU_MC_FLOAT; base = ATTU_OP_EQ_F; }
    else if (e->op >= ATTU_OP_EQ_S && e->op <= ATTU_OP_GE_S) { mc = ATTU_MC_TEXT; base = ATTU_OP_EQ_S; }
    else return -1;
    if (e->nargs != 2) return -1;
    sval a, b;
    if (value(e->args[0], node, row, mc, &a) || value(e->args[1], node, row, mc, &b)) return -1;
    if (a.null || b.null) return 2;
    int c = mc == ATTU_MC_INT ? (a.i > b.i) - (a.i < b.i)
          : mc == ATTU_MC_FLOAT ? (a.f > b.f) - (a.f < b.f)
          : cmp_text(&a, &b);
    switch (e->op - base) {   /* EQ NE LT LE GT GE, in that order in every family */
    case 0: return c == 0;
    case 1: return c != 0;
    case 2: return c < 0;
    case 3: return c <= 0;
    case 4: return c > 0;
    default: return c >= 0;
    }
}

static double conjunct_share(const attu_bexpr *e, const attu_lplan *node, size_t nrows) {
    size_t step = nrows > SAMPLE_ROWS ? nrows / SAMPLE_ROWS : 1, seen = 0, kept = 0;
    for (size_t r = 0; r < nrows && seen < SAMPLE_ROWS; r += step, seen++) {
        int t = truth(e, node, r);
        if (t < 0) return 1.0 / 3;
        kept += t == 1;
    }
    if (!seen) return 1.0;
    /* never exactly 0: a value missing from the sample may still occur */
    return kept ? (double)kept / (double)seen : 0.5 / (double)seen;
}

static void each_conjunct(const attu_bexpr *e, const attu_lplan *node, size_t nrows, double *sel) {
    if (e->kind == BX_CALL && e->op == ATTU_OP_AND) {
        each_conjunct(e->args[0], node, nrows, sel);
        each_conjunct(e->args[1], node, nrows, sel);
        return;
    }
    *sel *= conjunct_share(e, node, nrows);
}

double attu_leaf_selectivity(const attu_lplan *leaf) {
    const attu_lplan *p = leaf;
    while (p && (p->kind == LP_FILTER || p->kind == LP_PROJECT)) p = p->left;
    if (!p || p->kind != LP_SCAN || !p->table) return -1;
    size_t nrows = p->table->nrows;
    double sel = 1.0;
    for (p = leaf; p->kind != LP_SCAN; p = p->left)
        if (p->kind == LP_FILTER && p->pred) each_conjunct(p->pred, p->left, nrows, &sel);
    return sel;
}
