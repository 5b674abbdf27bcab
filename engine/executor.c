/*
 * executor.c - walks a stage plan and runs each stage's patterns through the
 * backend (see executor.h, stage_plan.h). Operators that need more room
 * live in executor_ops.c; this file holds the relation plumbing, scans,
 * filters, projections, sorts, limits and result download.
 */
#include "engine/executor.h"
#include "engine/executor_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double attu_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* ---- resident table columns -------------------------------------------------- */

typedef struct resident {
    attu_backend *be;
    attu_buf     *data;
    attu_buf     *valid;
    attu_buf      data_view;   /* CPU backend: a view of the host slots */
    bool          view;
} resident;

static void resident_free(void *p) {
    resident *r = p;
    if (!r) return;
    if (!r->view && r->data) r->be->free(r->be, r->data);
    if (r->valid) r->be->free(r->be, r->valid);
    free(r);
}

static pthread_mutex_t resident_lock = PTHREAD_MUTEX_INITIALIZER;

int attu_column_resident(attu_backend *be, attu_column *col, const attu_buf **data,
                         const attu_buf **valid, attu_error *err) {
    pthread_mutex_lock(&resident_lock);
    resident *r = col->device;
    if (r && (r->be != be || col->device_free != resident_free)) {
        if (col->device_free) col->device_free(col->device);
        col->device = NULL;
        r = NULL;
    }
    if (!r) {
        r = calloc(1, sizeof *r);
        if (!r) { pthread_mutex_unlock(&resident_lock); return attu_error_oom(err); }
        r->be = be;
        size_t n = col->length, w = attu_type_width(col->type.id);
        if (be->kind == ATTU_DEVICE_KIND_CPU) {
            /* host memory is the device: no copy of the slots */
            r->data_view.ptr = col->data;
            r->data_view.bytes = n * w;
            r->data = &r->data_view;
            r->view = true;
        } else {
            r->data = be->alloc(be, n * w, err);
            if (!r->data || be->upload(be, r->data, 0, col->data, n * w, err)) { resident_free(r); pthread_mutex_unlock(&resident_lock); return -1; }
        }
        if (col->validity) {
            uint8_t *bytes = malloc(n ? n : 1);
            if (!bytes) { resident_free(r); pthread_mutex_unlock(&resident_lock); return attu_error_oom(err); }
            for (size_t i = 0; i < n; i++) bytes[i] = !attu_column_is_null(col, i);
            r->valid = be->alloc(be, n, err);
            int rc = !r->valid || be->upload(be, r->valid, 0, bytes, n, err);
            free(bytes);
            if (rc) { resident_free(r); pthread_mutex_unlock(&resident_lock); return -1; }
        }
        col->device = r;
        col->device_free = resident_free;
    }
    *data = r->data;
    *valid = r->valid;
    pthread_mutex_unlock(&resident_lock);
    return 0;
}

/* ---- columns and relations ----------------------------------------------------- */

xcol *xcol_new(xctx *x, attu_type t, size_t n, bool with_valid) {
    xcol *c = calloc(1, sizeof *c);
    if (!c) { attu_error_oom(x->err); return NULL; }
    c->refs = 1;
    c->type = t;
    c->data = x->be->alloc(x->be, (n ? n : 1) * attu_type_width(t.id), x->err);
    if (!c->data) { free(c); return NULL; }
    c->owns_data = true;
    if (with_valid) {
        c->valid = x->be->alloc(x->be, n ? n : 1, x->err);
        if (!c->valid) { xcol_unref(x, c); return NULL; }
    }
    return c;
}

xcol *xcol_ref(xcol *c) { if (c) c->refs++; return c; }

xcol *xcol_new_lazy(xctx *x, xcol *src, xcol *idx) {
    xcol *c = calloc(1, sizeof *c);
    if (!c) { attu_error_oom(x->err); return NULL; }
    c->refs = 1;
    c->type = src->type;
    if (src->dict) c->dict = attu_dictionary_ref(src->dict);
    c->lazy_src = xcol_ref(src);
    c->lazy_idx = xcol_ref(idx);
    return c;
}

/* Several gathers by one index: one gather_cols call (the index read once
 * for all of them) where the backend has it, else one gather each. */
static int gather_batch(xctx *x, const attu_gather_col *batch, int nb, const attu_buf *idx, size_t n) {
    if (nb > 1 && x->be->gather_cols) return x->be->gather_cols(x->be, batch, nb, idx, n, x->err) ? -1 : 0;
    for (int k = 0; k < nb; k++)
        if (x->be->gather(x->be, batch[k].dst, batch[k].dst_valid, batch[k].src, batch[k].src_valid, batch[k].width,
                          idx, n, x->err)) return -1;
    return 0;
}

/* Gathers one batch of lazy columns by their shared index, and turns them
 * into ordinary columns. */
static int materialize_batch(xctx *x, xcol **made, attu_gather_col *batch, int nb, xcol *idx, size_t n) {
    if (gather_batch(x, batch, nb, idx->data, n)) return -1;
    for (int k = 0; k < nb; k++) {
        xcol_unref(x, made[k]->lazy_src);
        xcol_unref(x, made[k]->lazy_idx);
        made[k]->lazy_src = made[k]->lazy_idx = NULL;
    }
    return 0;
}

xcol *index_column(xctx *x, attu_buf *b) {
    xcol *c = calloc(1, sizeof *c);
    if (!c) { attu_error_oom(x->err); return NULL; }
    c->refs = 1;
    c->type = attu_type_make(ATTU_TYPE_INT64);
    c->data = b;
    c->owns_data = true;
    return c;
}

int rel_materialize(xctx *x, rel *r, const bool *only) {
    /* per index column, batches of up to BATCH columns in one gather_cols
     * call: the index is read once for all the columns it serves */
    enum { BATCH = 8 };
    for (int i = 0; i < r->ncols; i++) {
        xcol *lead = r->cols[i];
        if (!lead->lazy_src || (only && !only[i])) continue;
        xcol *idx = xcol_ref(lead->lazy_idx);   /* alive while its columns let go of it */
        attu_gather_col batch[BATCH];
        xcol *made[BATCH];
        int nb = 0, rc = 0;
        for (int j = i; j < r->ncols && !rc; j++) {
            xcol *c = r->cols[j];
            if (!c->lazy_src || c->lazy_idx != idx || (only && !only[j])) continue;
            bool dup = false;   /* the same column twice in r, in this batch */
            for (int k = 0; k < nb; k++) dup |= made[k] == c;
            if (dup) continue;
            xcol *s = c->lazy_src;
            size_t w = attu_type_width(c->type.id);
            c->data = x->be->alloc(x->be, (r->nrows ? r->nrows : 1) * w, x->err);
            if (!c->data) { rc = -1; break; }
            c->owns_data = true;
            if (s->valid && !(c->valid = x->be->alloc(x->be, r->nrows ? r->nrows : 1, x->err))) { rc = -1; break; }
            batch[nb] = (attu_gather_col){ c->data, c->valid, s->data, s->valid, w };
            made[nb++] = c;
            if (nb == BATCH) { rc = materialize_batch(x, made, batch, nb, idx, r->nrows); nb = 0; }
        }
        if (!rc && nb) rc = materialize_batch(x, made, batch, nb, idx, r->nrows);
        xcol_unref(x, idx);
        if (rc) return -1;
    }
    return 0;
}

void xcol_unref(xctx *x, xcol *c) {
    if (!c || --c->refs > 0) return;
    xcol_unref(x, c->lazy_src);
    xcol_unref(x, c->lazy_idx);
    if (c->owns_data) x->be->free(x->be, c->data);
    if (c->owns_valid || c->owns_data) x->be->free(x->be, c->valid);
    if (c->dict) attu_dictionary_unref(c->dict);
    free(c);
}

rel *rel_new(xctx *x, int ncols, size_t nrows) {
    rel *r = calloc(1, sizeof *r);
    if (r) r->cols = calloc((size_t)ncols + 1, sizeof(xcol *));
    if (!r || !r->cols) { free(r); attu_error_oom(x->err); return NULL; }
    r->ncols = ncols;
    r->nrows = nrows;
    return r;
}

void rel_free(xctx *x, rel *r) {
    if (!r) return;
    for (int i = 0; i < r->ncols; i++) xcol_unref(x, r->cols[i]);
    rel_split_free(x, r->split);
    free(r->cols);
    free(r);
}

attu_vec vec_of(const xcol *c) {
    attu_vec v = { c->type, c->data, c->valid, c->dict };
    return v;
}

attu_buf *buf_i64(xctx *x, size_t n) {
    return x->be->alloc(x->be, (n ? n : 1) * sizeof(int64_t), x->err);
}

int check_stop(xctx *x) {
    if (x->ctx->cancel && *x->ctx->cancel)
        return attu_error_set(x->err, ATTU_SQLSTATE_QUERY_CANCELED, 0, "canceling statement due to user request");
    if (x->ctx->deadline_ms > 0 && attu_now_ms() > x->ctx->deadline_ms)
        return attu_error_set(x->err, ATTU_SQLSTATE_QUERY_CANCELED, 0, "%s",
                              x->ctx->timeout_reason ? x->ctx->timeout_reason : "canceling statement due to statement timeout");
    return 0;
}

/* Gathers every column of r by idx (n rows); may_null: idx may hold -1. */
rel *rel_gather(xctx *x, const rel *r, const attu_buf *idx, size_t n, bool may_null) {
    rel *o = rel_new(x, r->ncols, n);
    if (!o) return NULL;
    /* the columns go to the backend together (gather_cols: each index is
     * read once for all of them) in batches of ATTU_GATHER_BATCH */
    enum { ATTU_GATHER_BATCH = 8 };
    attu_gather_col batch[ATTU_GATHER_BATCH];
    int nb = 0;
    for (int i = 0; i <= r->ncols; i++) {
        if (i < r->ncols) {
            xcol *s = r->cols[i];
            if (s->pruned) { o->cols[i] = xcol_ref(s); continue; }
            xcol *d = xcol_new(x, s->type, n, may_null || s->valid);
            if (!d) { rel_free(x, o); return NULL; }
            if (s->dict) d->dict = attu_dictionary_ref(s->dict);
            o->cols[i] = d;
            batch[nb++] = (attu_gather_col){ d->data, d->valid, s->data, s->valid, attu_type_width(s->type.id) };
        }
        if (nb == ATTU_GATHER_BATCH || (i == r->ncols && nb > 0)) {
            if (gather_batch(x, batch, nb, idx, n)) { rel_free(x, o); return NULL; }
            nb = 0;
        }
    }
    return o;
}

/* Which of the program's outputs can hold no NULL, given inputs without
 * validity buffers where ins[i].valid is NULL: only operators that give a
 * value for values (arithmetic, whose failures are errors, comparisons,
 * the plain numeric casts, moves and constants that are not NULL) between
 * such inputs and the output, and no guarded instruction (a guard leaves
 * rows unevaluated). never_null[o] is set for those; they are allocated
 * without a validity buffer: the eval writes no byte a row and what reads
 * them reads none (a join's t1.x + t2.y over 100M rows: 200 MB). One pass
 * over the program for all its outputs. */
static void outputs_never_null(const attu_expr_program *p, const attu_vec *ins, bool *never_null) {
    for (int o = 0; o < p->noutputs; o++) never_null[o] = false;
    bool *nullable = calloc((size_t)p->nregs + 1, sizeof *nullable);
    if (!nullable) return;
    for (int i = 0; i < p->nregs; i++) nullable[i] = i >= p->ninputs;   /* unwritten: unknown */
    for (int i = 0; i < p->ninputs; i++) nullable[i] = ins[i].valid != NULL;
    for (int k = 0; k < p->ninstr; k++) {
        const attu_instr *in = &p->code[k];
        bool safe = in->guard < 0;
        switch (in->op) {
        case ATTU_OP_CONST: safe = safe && !in->imm_null; break;
        case ATTU_OP_MOVE:
        case ATTU_OP_ADD_I: case ATTU_OP_SUB_I: case ATTU_OP_MUL_I: case ATTU_OP_DIV_I: case ATTU_OP_MOD_I:
        case ATTU_OP_NEG_I:
        case ATTU_OP_ADD_F: case ATTU_OP_SUB_F: case ATTU_OP_MUL_F: case ATTU_OP_DIV_F: case ATTU_OP_MOD_F:
        case ATTU_OP_NEG_F:
        case ATTU_OP_ADD_D: case ATTU_OP_SUB_D: case ATTU_OP_MUL_D: case ATTU_OP_DIV_D: case ATTU_OP_MOD_D:
        case ATTU_OP_NEG_D:
        case ATTU_OP_EQ_I: case ATTU_OP_NE_I: case ATTU_OP_LT_I: case ATTU_OP_LE_I: case ATTU_OP_GT_I: case ATTU_OP_GE_I:
        case ATTU_OP_EQ_F: case ATTU_OP_NE_F: case ATTU_OP_LT_F: case ATTU_OP_LE_F: case ATTU_OP_GT_F: case ATTU_OP_GE_F:
        case ATTU_OP_CAST_I_I: case ATTU_OP_CAST_I_F: case ATTU_OP_CAST_F_F: case ATTU_OP_CAST_I_D: case ATTU_OP_CAST_D_F:
            break;
        default: safe = false; break;
        }
        const int16_t src[4] = { in->a, in->b, in->c, in->d };
        for (int j = 0; j < 4 && safe; j++)
            if (src[j] >= 0 && (src[j] >= p->nregs || nullable[src[j]])) safe = false;
        if (in->dst >= 0 && in->dst < p->nregs) nullable[in->dst] = !safe;
    }
    for (int o = 0; o < p->noutputs; o++) {
        int reg = p->outputs[o];
        never_null[o] = reg >= 0 && reg < p->nregs && !nullable[reg];
    }
    free(nullable);
}

/* Evaluates stage expressions over r: out[i] = a new or shared column. */
int eval_exprs(xctx *x, const attu_stage_exprs *ex, const rel *r, xcol **out) {
    for (int i = 0; i < ex->n; i++) out[i] = NULL;
    if (ex->prog) {
        const attu_expr_program *p = ex->prog;
        attu_vec *ins = calloc((size_t)ex->nin + 1, sizeof *ins);
        attu_out *outs = calloc((size_t)p->noutputs + 1, sizeof *outs);
        xcol **made = calloc((size_t)p->noutputs + 1, sizeof *made);
        if (!ins || !outs || !made) { free(ins); free(outs); free(made); return attu_error_oom(x->err); }
        /* parameters of an enclosing APPLY stage: broadcast to the rows */
        xcol **bc = calloc((size_t)ex->nin + 1, sizeof *bc);
        if (!bc) { free(ins); free(outs); free(made); return attu_error_oom(x->err); }
        int rc = 0;
        for (int i = 0; i < ex->nin && !rc; i++) {
            if (ex->in_cols[i] >= 0) { ins[i] = vec_of(r->cols[ex->in_cols[i]]); continue; }
            if (!(bc[i] = param_column(x, -ex->in_cols[i] - 1, r->nrows))) rc = -1;
            else ins[i] = vec_of(bc[i]);
        }
        bool *never_null = rc ? NULL : calloc((size_t)p->noutputs + 1, sizeof *never_null);
        if (!rc && !never_null) rc = attu_error_oom(x->err);
        if (!rc) outputs_never_null(p, ins, never_null);
        for (int o = 0; o < p->noutputs && !rc; o++) {
            attu_type t = p->reg_types[p->outputs[o]];
            made[o] = xcol_new(x, t, r->nrows, !never_null[o]);
            if (!made[o]) { rc = -1; break; }
            outs[o] = (attu_out){ t, made[o]->data, made[o]->valid, NULL };
        }
        if (!rc) rc = x->be->eval(x->be, p, ins, r->nrows, outs, x->err);
        for (int o = 0; o < p->noutputs; o++) if (made[o] && outs[o].dict) made[o]->dict = outs[o].dict;
        if (!rc) {
            /* TEXT outputs that are an input passed through keep its codes' dictionary */
            for (int i = 0; i < ex->n; i++) if (ex->direct[i] < 0) out[i] = xcol_ref(made[-ex->direct[i] - 1]);
        }
        for (int o = 0; o < p->noutputs; o++) xcol_unref(x, made[o]);
        for (int i = 0; i < ex->nin; i++) xcol_unref(x, bc[i]);
        free(ins); free(outs); free(made); free(bc); free(never_null);
        if (rc) { for (int i = 0; i < ex->n; i++) { xcol_unref(x, out[i]); out[i] = NULL; } return -1; }
    }
    for (int i = 0; i < ex->n; i++) if (ex->direct[i] >= 0) out[i] = xcol_ref(r->cols[ex->direct[i]]);
    return 0;
}

/* ---- scan, values, filter, project ----------------------------------------------- */

xcol *xcol_pruned(xctx *x, attu_type t) {
    xcol *c = calloc(1, sizeof *c);
    if (!c) { attu_error_oom(x->err); return NULL; }
    c->refs = 1;
    c->type = t;
    c->pruned = true;
    return c;
}

static rel *run_scan(xctx *x, attu_stage *s) {
    attu_table *t = s->table;
    rel *r = rel_new(x, s->ncols, t->nrows);
    if (!r) return NULL;
    for (int i = 0; i < s->ncols; i++) {
        int tc = s->cols[i];
        if (tc < 0) {            /* pruned: nothing reads it */
            if (!(r->cols[i] = xcol_pruned(x, s->types[i]))) { rel_free(x, r); return NULL; }
            continue;
        }
        if (tc >= t->ncols) {    /* rowid */
            xcol *c = xcol_new(x, attu_type_make(ATTU_TYPE_INT64), t->nrows, false);
            if (!c || x->be->iota(x->be, c->data, 0, t->nrows, x->err)) { xcol_unref(x, c); rel_free(x, r); return NULL; }
            r->cols[i] = c;
            continue;
        }
        attu_column *col = t->cols[tc];
        xcol *c = calloc(1, sizeof *c);
        if (!c) { attu_error_oom(x->err); rel_free(x, r); return NULL; }
        c->refs = 1;
        c->type = col->type;
        c->tcol = col;
        r->cols[i] = c;
        const attu_buf *d, *v;
        if (attu_column_resident(x->be, col, &d, &v, x->err)) { rel_free(x, r); return NULL; }
        c->data = (attu_buf *)d;
        c->valid = (attu_buf *)v;
        if (col->dict) c->dict = attu_dictionary_ref(col->dict);
    }
    return r;
}

/* VALUES: each row evaluated on its own (a one-row relation), the rows
 * then concatenated pairwise (rel_concat_all: each row copied O(log n)
 * times; appending row by row copied the rows so far at each step, so a
 * VALUES of 50,000 rows took most of a minute). */
static rel *run_values(xctx *x, attu_stage *s) {
    if (s->ncols == 0) return rel_new(x, 0, (size_t)s->nrows);
    rel **rows = calloc((size_t)s->nrows + 1, sizeof *rows);
    if (!rows) { attu_error_oom(x->err); return NULL; }
    int done = 0;
    for (; done < s->nrows; done++) {
        attu_stage_exprs ex = { 0 };
        int direct[s->ncols];
        for (int i = 0; i < s->ncols; i++) direct[i] = -(i + 1);
        ex.n = s->ncols; ex.direct = direct; ex.prog = s->rows[done];
        rel *one = rel_new(x, 0, 1);
        if (!one) break;
        rel *row = rel_new(x, s->ncols, 1);
        if (!row || eval_exprs(x, &ex, one, row->cols)) { rel_free(x, one); rel_free(x, row); break; }
        rel_free(x, one);
        rows[done] = row;
    }
    rel *all = NULL;
    if (done == s->nrows) all = rel_concat_all(x, rows, (size_t)done);
    else
        for (int i = 0; i < done; i++) rel_free(x, rows[i]);
    free(rows);
    return all;
}

rel *filter_by_mask(xctx *x, rel *in, xcol *mask) {
    attu_vec mv = vec_of(mask);
    attu_buf *idx = NULL;
    size_t cnt = 0;
    if (x->be->compact(x->be, &mv, in->nrows, &idx, &cnt, x->err)) return NULL;
    rel *o = rel_gather(x, in, idx, cnt, false);
    x->be->free(x->be, idx);
    return o;
}

/* in's rows idx (n of them; the buffer is taken over), every column lazy:
 * a lazy input column composes its index with idx (lazy_side), so a chain
 * of filters, sorts and limits gathers each column once, at the size the
 * stage that reads it sees (run_stage), or never. */
rel *rel_through(xctx *x, const rel *in, attu_buf *idx, size_t n) {
    xcol *ix = index_column(x, idx);
    if (!ix) { x->be->free(x->be, idx); return NULL; }
    rel *o = rel_new(x, in->ncols, n);
    if (o && lazy_side(x, o, 0, in, ix, n, NULL)) { rel_free(x, o); o = NULL; }
    xcol_unref(x, ix);
    return o;
}

/* The kept rows' columns are left lazy (the input's columns and the kept
 * rows' index): a join above gathers only its keys and composes the rest
 * with its own pairs; any other stage gathers them all (run_stage), as
 * filter_by_mask would have. */
rel *filter_lazy(xctx *x, const rel *in, xcol *m) {
    attu_vec mv = vec_of(m);
    attu_buf *idx = NULL;
    size_t cnt = 0;
    if (x->be->compact(x->be, &mv, in->nrows, &idx, &cnt, x->err)) return NULL;
    return rel_through(x, in, idx, cnt);
}

static rel *run_filter(xctx *x, attu_stage *s, rel *in) {
    xcol *m;
    if (eval_exprs(x, &s->exprs, in, &m)) return NULL;
    rel *o = filter_lazy(x, in, m);
    xcol_unref(x, m);
    return o;
}

static rel *run_project(xctx *x, attu_stage *s, rel *in) {
    rel *o = rel_new(x, s->ncols, in->nrows);
    if (!o) return NULL;
    if (eval_exprs(x, &s->exprs, in, o->cols)) { rel_free(x, o); return NULL; }
    return o;
}

/* ---- sort, top-k, limit, distinct ------------------------------------------------- */

static attu_sort_key *make_keys(xcol **k, int n, const bool *desc, const bool *nf) {
    attu_sort_key *keys = calloc((size_t)n + 1, sizeof *keys);
    if (!keys) return NULL;
    for (int i = 0; i < n; i++) {
        keys[i].col = vec_of(k[i]);
        keys[i].desc = desc ? desc[i] : false;
        keys[i].nulls_first = nf ? nf[i] : false;
    }
    return keys;
}

static rel *run_sort(xctx *x, attu_stage *s, rel *in) {
    int nk = s->keys.n;
    xcol **k = calloc((size_t)nk + 1, sizeof *k);
    if (!k) { attu_error_oom(x->err); return NULL; }
    rel *o = NULL;
    attu_sort_key *keys = NULL;
    attu_buf *perm = NULL;
    if (eval_exprs(x, &s->keys, in, k)) goto done;
    keys = make_keys(k, nk, s->desc, s->nulls_first);
    if (!keys) { attu_error_oom(x->err); goto done; }
    size_t n = in->nrows;
    if (s->kind == ATTU_ST_TOPK && (size_t)s->limit < n) n = (size_t)s->limit;
    perm = buf_i64(x, in->nrows);
    if (!perm) goto done;
    int rc = s->kind == ATTU_ST_TOPK ? exec_top_k(x, keys, nk, in->nrows, n, perm)
                                     : exec_sort(x, keys, nk, in->nrows, perm);
    if (rc) goto done;
    /* lazy: ORDER BY ... OFFSET of a large table moved every row twice */
    o = rel_through(x, in, perm, n);
    perm = NULL;
done:
    for (int i = 0; i < nk; i++) xcol_unref(x, k[i]);
    free(k); free(keys);
    if (perm) x->be->free(x->be, perm);
    return o;
}

/* Whether an aggregate stage's value is the same whatever the order of
 * its input rows (up to a float sum's rounding, which no order of ours
 * promises anyway): counts, sums, averages, variances, MIN / MAX, the
 * bitwise aggregates; not string_agg, the _ARG and ANY forms, corr and
 * the regr_* family (their `arg` is X) or an ordered-set aggregate. */
static bool order_free_aggregate(const attu_stage *s) {
    for (int i = 0; i < s->naggs; i++) {
        const attu_stage_agg *g = &s->aggs[i];
        if (g->osa || g->arg >= 0) return false;
        switch (g->op) {
        case ATTU_REDUCE_COUNT_STAR: case ATTU_REDUCE_COUNT: case ATTU_REDUCE_SUM: case ATTU_REDUCE_MIN:
        case ATTU_REDUCE_MAX: case ATTU_REDUCE_AVG_SUM: case ATTU_REDUCE_VAR_M2:
        case ATTU_REDUCE_BIT_AND: case ATTU_REDUCE_BIT_OR: case ATTU_REDUCE_BIT_XOR:
            break;
        default:
            return false;
        }
    }
    return true;
}

/* limit_over_sort's selection of the rows [start, start + cnt) of sort's
 * order over in (its keys k evaluated): as a set (select_window_set) or in
 * order (select_window). Returns 0 with *out, 1 when the backend declined,
 * -1 on error. */
static int select_kept_rows(xctx *x, attu_stage *sort, rel *in, xcol **k, int nk, size_t start, size_t cnt,
                            bool as_set, rel **out) {
    bool selected = false;
    attu_sort_key *keys = make_keys(k, nk, sort->desc, sort->nulls_first);
    attu_buf *idx = NULL;
    int rc = -1;
    if (!keys) return attu_error_oom(x->err);
    if (!(idx = buf_i64(x, cnt))) goto done;
    if ((as_set ? exec_select_window_set : exec_select_window)(x, keys, nk, in->nrows, start, cnt, idx, &selected))
        goto done;
    if (!selected) { rc = 1; goto done; }
    *out = rel_through(x, in, idx, cnt);
    idx = NULL;
    if (!*out) goto done;
    sort->executed = true;
    sort->act_rows = cnt;
    sort->act_how = as_set ? "select_window_set (the rows as a set)" : "select_window";
    rc = 0;
done:
    free(keys);
    if (idx) x->be->free(x->be, idx);
    return rc;
}

/* LIMIT / OFFSET straight over a SORT whose kept rows are few (a quarter
 * of the order at most; each backend has its own limit, the CPU's an
 * eighth): the backend's select_window takes them from anywhere in the
 * order (both backends: a sampled bracket and one pass, backend.h); where
 * it declines, a window in the first or the last eighth
 * is a top-k instead of the sort (the backend's top_k selects on the GPU;
 * selection pays on large inputs only). The first
 * start + cnt rows are the top-k; the last n - start are the top-k of the
 * reversed order (every key's direction and NULL placement turned, ties
 * turned by one more key, the row number descending), read back to front.
 * Returns 1 (nothing done) when neither applies: the window wide or in the
 * middle without select_window, the input small, or the reversed rows too
 * many to turn on the host. */
static int limit_over_sort(xctx *x, attu_stage *s, attu_stage *sort, rel *in, rel **out) {
    size_t n = in->nrows, off = (size_t)s->offset;
    size_t start = off < n ? off : n, cnt = n - start;
    if (s->limit >= 0 && (size_t)s->limit < cnt) cnt = (size_t)s->limit;
    bool head = start + cnt <= n / 8, tail = start + cnt == n && n - start <= n / 8 && n - start <= 65536;
    /* the GPU's select_window takes a quarter of the rows, the CPU's an
     * eighth: wider ones would only evaluate the keys twice */
    bool window = x->be->select_window && cnt <= (x->be->kind == ATTU_DEVICE_KIND_CPU ? n / 8 : n / 4);
    /* the rows as a set for the aggregate above (x->set_limit): a GPU's
     * two brackets pay from a window of a 64th of the rows (narrower ones
     * overlap them: the ordered paths below); a CPU's set is its sort, taken
     * only where nothing below applies. ATTU_WINDOW_SET=0 turns it off. */
    const char *se = getenv("ATTU_WINDOW_SET");   /* 0: the ordered paths only (comparisons) */
    bool set = x->set_limit == s && x->be->select_window_set && !(se && !strcmp(se, "0")) &&
               (x->be->kind != ATTU_DEVICE_KIND_CPU ? cnt >= n / 64 : !head && !tail && !window);
    int nk = sort->keys.n;
    if (n < 65536 || cnt == 0 || nk == 0 || (!head && !tail && !window && !set)) return 1;
    xcol **k = calloc((size_t)nk + 1, sizeof *k);
    attu_sort_key *keys = NULL;
    attu_buf *perm = NULL, *idx = NULL;
    int64_t *h = NULL;
    int rc = -1;
    if (!k) { attu_error_oom(x->err); goto done; }
    if (eval_exprs(x, &sort->keys, in, k)) goto done;
    /* the window selected, as a set, then in order; each declines alone */
    for (int as_set = 1; as_set >= 0; as_set--) {
        if (!(as_set ? set : window)) continue;
        int src = select_kept_rows(x, sort, in, k, nk, start, cnt, as_set, out);
        if (src <= 0) { rc = src; goto done; }
        if (!head && !tail && !(as_set && window)) { rc = 1; goto done; }
    }
    if (tail) {
        /* the reversed order: turned keys, then the row number descending
         * (a key without data: backend.h, top_k) */
        bool *desc = calloc((size_t)nk + 1, sizeof *desc), *nf = calloc((size_t)nk + 1, sizeof *nf);
        if (!desc || !nf) { free(desc); free(nf); attu_error_oom(x->err); goto done; }
        for (int i = 0; i < nk; i++) {
            desc[i] = !(sort->desc && sort->desc[i]);
            nf[i] = !(sort->nulls_first && sort->nulls_first[i]);
        }
        keys = make_keys(k, nk, desc, nf);   /* nk + 1 entries, the last zeroed */
        free(desc); free(nf);
        if (keys) {
            keys[nk].col.type = attu_type_make(ATTU_TYPE_INT64);
            keys[nk].desc = true;
        }
    } else {
        keys = make_keys(k, nk, sort->desc, sort->nulls_first);
    }
    if (!keys) { attu_error_oom(x->err); goto done; }
    size_t want = tail ? n - start : start + cnt;
    perm = buf_i64(x, n);
    if (!perm || exec_top_k(x, keys, tail ? nk + 1 : nk, n, want, perm)) goto done;
    idx = buf_i64(x, cnt);
    if (!idx) goto done;
    if (tail) {
        /* forward position start + i is reversed position want - 1 - i
         * (here cnt == want): the top-k read back to front */
        h = malloc(sizeof *h * want);
        if (!h) { attu_error_oom(x->err); goto done; }
        if (x->be->download(x->be, h, perm, 0, sizeof *h * want, x->err)) goto done;
        for (size_t i = 0; i < want / 2; i++) {
            int64_t t = h[i];
            h[i] = h[want - 1 - i];
            h[want - 1 - i] = t;
        }
        if (x->be->upload(x->be, idx, 0, h, sizeof *h * cnt, x->err)) goto done;
    } else {
        /* rows [start, start + cnt) of the top-k */
        attu_buf *pos = buf_i64(x, cnt);
        int grc = !pos || x->be->iota(x->be, pos, (attu_index)start, cnt, x->err) ||
                  x->be->gather(x->be, idx, NULL, perm, NULL, 8, pos, cnt, x->err);
        if (pos) x->be->free(x->be, pos);
        if (grc) goto done;
    }
    *out = rel_through(x, in, idx, cnt);
    idx = NULL;
    if (*out) {
        sort->executed = true;
        sort->act_rows = want;
        sort->act_how = tail ? "top_k of the reversed order" : "top_k";
        rc = 0;
    }
done:
    for (int i = 0; i < nk && k; i++) xcol_unref(x, k[i]);
    free(k); free(keys); free(h);
    if (perm) x->be->free(x->be, perm);
    if (idx) x->be->free(x->be, idx);
    return rc;
}

/* Where the run of rows[0..m) equal to rows[0] in the keys kv ends: the
 * backend's second segment head, at the first row that differs (*h1 = m
 * when none does). */
static int first_differing(xctx *x, const attu_vec *kv, int nk, const attu_buf *rows, size_t m, size_t *h1) {
    attu_buf *heads = NULL;
    size_t nh = 0;
    *h1 = m;
    if (exec_segment_heads(x, kv, nk, rows, m, &heads, &nh)) return -1;
    int rc = 0;
    if (nh > 1) {
        int64_t h;
        rc = x->be->download(x->be, &h, heads, sizeof h, sizeof h, x->err);
        if (!rc) *h1 = (size_t)h;
    }
    free_buf(x, heads);
    return rc;
}

/* WITH TIES: *end = the end (exclusive) of the run of rows, from `last`
 * on in in's order, that equal row `last` in the stage's keys (the ORDER
 * BY keys; NULLs equal, and the values compare as the sort compares them);
 * n when the run reaches the last row, and with no keys (every row a
 * peer). The columns the keys read are materialized in `in` first; the
 * backend's segment_heads over positions [last, n) puts its second head
 * at the first row that differs. */
static int ties_end(xctx *x, const attu_stage *s, rel *in, size_t last, size_t *end) {
    size_t n = in->nrows, m = n - last;
    int nk = s->keys.n;
    *end = n;
    if (nk == 0) return 0;
    bool *only = calloc((size_t)in->ncols + 1, sizeof *only);
    xcol **k = calloc((size_t)nk + 1, sizeof *k);
    attu_vec *kv = calloc((size_t)nk + 1, sizeof *kv);
    attu_buf *pos = NULL;
    size_t h1 = 0;
    int rc = -1;
    if (!only || !k || !kv) { attu_error_oom(x->err); goto done; }
    for (int i = 0; i < nk; i++) if (s->keys.direct[i] >= 0) only[s->keys.direct[i]] = true;
    for (int i = 0; i < s->keys.nin; i++) if (s->keys.in_cols[i] >= 0) only[s->keys.in_cols[i]] = true;
    if (rel_materialize(x, in, only) || eval_exprs(x, &s->keys, in, k)) goto done;
    for (int i = 0; i < nk; i++) kv[i] = vec_of(k[i]);
    if (!(pos = buf_i64(x, m)) || x->be->iota(x->be, pos, (attu_index)last, m, x->err)) goto done;
    if (first_differing(x, kv, nk, pos, m, &h1)) goto done;
    *end = last + h1;
    rc = 0;
done:
    for (int i = 0; i < nk && k; i++) xcol_unref(x, k[i]);
    free(only); free(k); free(kv);
    free_buf(x, pos);
    return rc;
}

/* WITH TIES straight over a SORT whose kept rows are few (the first
 * eighth of the order at most, of 65536 rows or more): the backend's
 * top_k (stable, as the sort) of the first `want` rows holds the kept rows
 * and, where one of its rows after the last counted one differs from that
 * one in the ORDER BY keys (the LIMIT's own, over the same columns), where
 * the peers end; where all of them are its peers, they may go on past it,
 * and a top-k four times as large looks further. Returns 1 (nothing done)
 * when the window is too wide or the peers run past an eighth of the rows:
 * the caller sorts. */
static int ties_over_sort(xctx *x, attu_stage *s, attu_stage *sort, rel *in, rel **out) {
    size_t n = in->nrows, off = (size_t)s->offset;
    size_t start = off < n ? off : n, cnt = n - start;
    if (s->limit >= 0 && (size_t)s->limit < cnt) cnt = (size_t)s->limit;
    int nk = sort->keys.n, nt = s->keys.n;
    if (n < 65536 || cnt == 0 || nk == 0 || nt == 0 || start + cnt > n / 8) return 1;
    size_t last = start + cnt - 1, want = start + cnt + 64;
    if (want > n / 8) want = n / 8;
    xcol **k = calloc((size_t)(nk + nt) + 1, sizeof *k);
    attu_vec *tv = calloc((size_t)nt + 1, sizeof *tv);
    attu_sort_key *keys = NULL;
    attu_buf *perm = NULL, *pos = NULL, *rows = NULL, *idx = NULL;
    size_t end = 0;
    int rc = -1;
    if (!k || !tv) { attu_error_oom(x->err); goto done; }
    if (eval_exprs(x, &sort->keys, in, k) || eval_exprs(x, &s->keys, in, k + nk)) goto done;
    for (int i = 0; i < nt; i++) tv[i] = vec_of(k[nk + i]);
    if (!(keys = make_keys(k, nk, sort->desc, sort->nulls_first))) { attu_error_oom(x->err); goto done; }
    if (!(perm = buf_i64(x, n))) goto done;
    for (;;) {
        /* the rows at positions [last, want) of the order, and where in
         * them the first row differing from the one at `last` is */
        size_t m = want - last, h1 = 0;
        if (exec_top_k(x, keys, nk, n, want, perm)) goto done;
        if (!(pos = buf_i64(x, m)) || !(rows = buf_i64(x, m)) || x->be->iota(x->be, pos, (attu_index)last, m, x->err) ||
            x->be->gather(x->be, rows, NULL, perm, NULL, 8, pos, m, x->err) ||
            first_differing(x, tv, nt, rows, m, &h1))
            goto done;
        if (h1 < m) {
            end = last + h1;
            break;
        }
        free_buf(x, pos); free_buf(x, rows);
        pos = rows = NULL;
        if (want >= n / 8) { rc = 1; goto done; }   /* the peers run on: sort */
        want = want > n / 32 ? n / 8 : want * 4;
    }
    /* rows [start, end) of the top-k */
    free_buf(x, pos);
    if (!(pos = buf_i64(x, end - start)) || !(idx = buf_i64(x, end - start)) ||
        x->be->iota(x->be, pos, (attu_index)start, end - start, x->err) ||
        x->be->gather(x->be, idx, NULL, perm, NULL, 8, pos, end - start, x->err))
        goto done;
    *out = rel_through(x, in, idx, end - start);
    idx = NULL;
    if (*out) {
        sort->executed = true;
        sort->act_rows = want;
        sort->act_how = "top_k";
        rc = 0;
    }
done:
    for (int i = 0; i < nk + nt && k; i++) xcol_unref(x, k[i]);
    free(k); free(tv); free(keys);
    free_buf(x, perm); free_buf(x, pos); free_buf(x, rows); free_buf(x, idx);
    return rc;
}

/* The input may be lazy (a sort's columns through its permutation): the
 * kept rows' index composes with it (lazy_side), so only they are
 * gathered, once, by run_stage. WITH TIES (the input in the ORDER BY's
 * order) keeps the last counted row's peers after it too. */
static rel *run_limit(xctx *x, attu_stage *s, rel *in) {
    size_t off = (size_t)s->offset, n = in->nrows;
    size_t start = off < n ? off : n;
    size_t cnt = n - start;
    if (s->limit >= 0 && (size_t)s->limit < cnt) cnt = (size_t)s->limit;
    if (s->with_ties && cnt > 0 && start + cnt < n) {
        size_t end;
        if (ties_end(x, s, in, start + cnt - 1, &end)) return NULL;
        cnt = end - start;
    }
    attu_buf *idx = buf_i64(x, cnt);
    if (!idx || x->be->iota(x->be, idx, (attu_index)start, cnt, x->err)) { if (idx) x->be->free(x->be, idx); return NULL; }
    return rel_through(x, in, idx, cnt);
}

/* The first row, in the order of the nsort keys, of every run of equal
 * values of the first nheads of them (nheads 0: one run for all rows): a
 * stable sort, the runs' heads, and the sorted rows at the heads. */
int first_rows_of_runs(xctx *x, const attu_sort_key *keys, int nsort, int nheads, size_t n, attu_buf **rows_out,
                       size_t *count_out) {
    attu_vec *kv = calloc((size_t)nheads + 1, sizeof *kv);
    attu_buf *perm = buf_i64(x, n), *heads = NULL, *idx = NULL;
    size_t nh = 0;
    int rc = -1;
    if (!kv || !perm) { if (!x->err->set) attu_error_oom(x->err); goto done; }
    for (int i = 0; i < nheads; i++) kv[i] = keys[i].col;
    if (exec_sort(x, keys, nsort, n, perm)) goto done;
    if (nheads) {
        if (exec_segment_heads(x, kv, nheads, perm, n, &heads, &nh)) goto done;
    } else {
        nh = n ? 1 : 0;
        heads = buf_i64(x, 1);
        if (!heads || x->be->iota(x->be, heads, 0, nh, x->err)) goto done;
    }
    idx = buf_i64(x, nh);
    if (!idx || x->be->gather(x->be, idx, NULL, perm, NULL, 8, heads, nh, x->err)) goto done;
    *rows_out = idx;
    *count_out = nh;
    idx = NULL;
    rc = 0;
done:
    free(kv);
    free_buf(x, perm); free_buf(x, heads); free_buf(x, idx);
    return rc;
}

/* Rows with distinct values over all columns (first of each group in sort order). */
rel *rel_distinct(xctx *x, rel *in) {
    return rel_distinct_by(x, in, in->ncols);
}

/* Rows with distinct values over the first nk columns (first of each group
 * in their sort order): the other columns are carried, a row of the group's */
rel *rel_distinct_by(xctx *x, rel *in, int nk) {
    attu_sort_key *keys = make_keys(in->cols, nk, NULL, NULL);
    attu_buf *idx = NULL;
    size_t nh = 0;
    rel *o = NULL;
    if (!keys) { attu_error_oom(x->err); return NULL; }
    if (!first_rows_of_runs(x, keys, nk, nk, in->nrows, &idx, &nh)) o = rel_gather(x, in, idx, nh, false);
    free(keys);
    free_buf(x, idx);
    return o;
}

/* ---- the walk ---------------------------------------------------------------------------- */

rel *rel_empty(xctx *x, const attu_stage *s) {
    rel *o = rel_new(x, s->ncols, 0);
    if (!o) return NULL;
    for (int i = 0; i < s->ncols; i++) {
        xcol *c = xcol_new(x, s->types[i], 0, true);
        if (!c) { rel_free(x, o); return NULL; }
        if (s->types[i].id == ATTU_TYPE_TEXT && !(c->dict = attu_dictionary_build(NULL, NULL, 0, NULL, x->err))) {
            xcol_unref(x, c);
            rel_free(x, o);
            return NULL;
        }
        o->cols[i] = c;
    }
    return o;
}


int check_stage_cols(xctx *x, const attu_stage *s, const rel *r) {
    if (r->ncols == s->ncols) return 0;
    return attu_error_set(x->err, ATTU_SQLSTATE_INTERNAL, 0, "stage %s produced %d columns, expected %d",
                          attu_stage_kind_name(s->kind), r->ncols, s->ncols);
}

rel *run_stage(xctx *x, attu_stage *s) {
    rel *r = run_stage_lazy(x, s);
    if (r && rel_materialize(x, r, NULL)) { rel_free(x, r); return NULL; }
    return r;
}

rel *run_stage_lazy(xctx *x, attu_stage *s) {
    if (check_stop(x)) return NULL;
    /* a chain of joins that all probe one fact input runs as one */
    star_chain st;
    if (s->kind == ATTU_ST_JOIN && star_shape(s, &st)) {
        /* the chain's joins feed each other: none of them splits */
        const attu_stage *split_before = x->split_join;
        x->split_join = NULL;
        rel *r = run_star(x, &st);
        x->split_join = split_before;
        return r;
    }
    if (s->kind == ATTU_ST_LIMIT && s->counts[0].n && limit_counts_now(x, s)) return NULL;
    /* LIMIT 0 never runs its input, as PostgreSQL's Limit node never pulls
     * from it: an error the input would raise (a division by zero) does not
     * happen. */
    if ((s->kind == ATTU_ST_LIMIT || s->kind == ATTU_ST_TOPK) && s->limit == 0) {
        double t0 = attu_now_ms();
        rel *o = rel_empty(x, s);
        if (o) { s->executed = true; s->act_rows = 0; s->act_ms = attu_now_ms() - t0; }
        return o;
    }
    /* WHERE rn = 1 over row_number(): the window keeps each partition's
     * first row itself (executor_window_first.c) */
    window_first_match wf;
    if (s->kind == ATTU_ST_FILTER && window_first_shape(s, &wf)) return run_window_first(x, &wf);
    rel *in0 = NULL, *in1 = NULL, *out = NULL;
    /* LIMIT straight over SORT may select the kept rows instead of sorting
     * all of them (limit_over_sort); it then runs the sort's input itself */
    if (s->kind == ATTU_ST_LIMIT && s->child[0] && s->child[0]->kind == ATTU_ST_SORT) {
        attu_stage *sort = s->child[0];
        if (!(in0 = run_stage(x, sort->child[0]))) return NULL;
        double t0 = attu_now_ms();
        /* WITH TIES: how many rows it keeps is known only in the order */
        int lrc = s->with_ties ? ties_over_sort(x, s, sort, in0, &out) : limit_over_sort(x, s, sort, in0, &out);
        if (lrc == 1) {
            /* the window is in the middle: sort, then keep the rows */
            rel *sorted = run_sort(x, sort, in0);
            if (sorted) {
                sort->executed = true;
                sort->act_rows = sorted->nrows;
                sort->act_ms = attu_now_ms() - t0;
                t0 = attu_now_ms();
                out = run_limit(x, s, sorted);
                rel_free(x, sorted);
            }
        } else if (lrc == 0) {
            sort->act_ms = attu_now_ms() - t0;
        }
        rel_free(x, in0);
        if (out && !x->err->set) check_stage_cols(x, s, out);
        if (!out && !x->err->set) attu_error_oom(x->err);
        if (x->err->set) { rel_free(x, out); return NULL; }
        s->executed = true;
        s->act_rows = out->nrows;
        s->act_ms = attu_now_ms() - t0;
        return out;
    }
    /* RECURSIVE runs its children itself, the second one repeatedly */
    bool own = s->kind == ATTU_ST_RECURSIVE || s->kind == ATTU_ST_APPLY || s->kind == ATTU_ST_SHARED;
    /* a join takes its inputs' lazy columns as they are (run_join gathers
     * what it reads and passes the rest on), and so do LIMIT (it composes
     * its rows with theirs) and AGG (run_agg's fused path reads through
     * them, its other paths materialize them); every other stage reads
     * materialized columns */
    rel *(*child)(xctx *, attu_stage *) =
        s->kind == ATTU_ST_JOIN || s->kind == ATTU_ST_LIMIT || s->kind == ATTU_ST_AGG ? run_stage_lazy : run_stage;
    /* an aggregate that sums a join's sides apart asks it for split pairs */
    const attu_stage *split_before = x->split_join, *set_before = x->set_limit;
    unsigned counted_before = x->split_counted, counted = 0;
    if (s->kind == ATTU_ST_AGG && s->child[0] && split_sum_shape(s, s->child[0], &counted)) {
        x->split_join = s->child[0];
        x->split_counted = counted;
    }
    /* an aggregate of the set of its rows over LIMIT / OFFSET of an ORDER BY */
    if (s->kind == ATTU_ST_AGG && order_free_aggregate(s)) {
        /* through projections of the kept rows (a subquery's select list) */
        const attu_stage *c = s->child[0];
        while (c && c->kind == ATTU_ST_PROJECT) c = c->child[0];
        if (c && c->kind == ATTU_ST_LIMIT) x->set_limit = c;
    }
    if (!own && s->child[0] && !(in0 = child(x, s->child[0]))) {
        x->split_join = split_before; x->split_counted = counted_before; x->set_limit = set_before;
        return NULL;
    }
    x->split_join = split_before; x->split_counted = counted_before; x->set_limit = set_before;
    if (!own && s->child[1] && !(in1 = child(x, s->child[1]))) { rel_free(x, in0); return NULL; }
    double t0 = attu_now_ms();
    switch (s->kind) {
    case ATTU_ST_SCAN: out = run_scan(x, s); break;
    case ATTU_ST_VALUES: out = run_values(x, s); break;
    case ATTU_ST_FILTER: out = run_filter(x, s, in0); break;
    case ATTU_ST_PROJECT: out = run_project(x, s, in0); break;
    case ATTU_ST_JOIN: out = run_join(x, s, in0, in1, in0->ncols + in1->ncols == s->ncols ? s->out_need : NULL); break;
    case ATTU_ST_CROSS: out = run_cross(x, s, in0, in1); break;
    case ATTU_ST_AGG: out = run_agg(x, s, in0); break;
    case ATTU_ST_JOIN_AGG: out = run_join_agg(x, s, in0, in1); break;
    case ATTU_ST_WINDOW: out = run_window(x, s, in0); break;
    case ATTU_ST_SORT: case ATTU_ST_TOPK: out = run_sort(x, s, in0); break;
    case ATTU_ST_LIMIT: out = run_limit(x, s, in0); break;
    case ATTU_ST_DISTINCT:
        out = s->setop_ncmp > 0 && s->setop_ncmp < in0->ncols ? rel_distinct_by(x, in0, s->setop_ncmp) : rel_distinct(x, in0);
        break;
    case ATTU_ST_SETOP: out = run_setop(x, s, in0, in1); break;
    case ATTU_ST_RECURSIVE: out = run_recursive(x, s); break;
    case ATTU_ST_WORKTABLE: out = run_worktable(x, s); break;
    case ATTU_ST_APPLY: out = run_apply(x, s); break;
    case ATTU_ST_SRF: out = run_srf(x, s, in0); break;
    case ATTU_ST_SHARED: out = run_shared(x, s); break;
    }
    rel_free(x, in0);
    rel_free(x, in1);
    if (out && !x->err->set) check_stage_cols(x, s, out);
    if (x->err->set) { rel_free(x, out); return NULL; }
    s->executed = true;
    s->act_rows = out->nrows;
    s->act_ms = attu_now_ms() - t0;
    return out;
}

int attu_execute(attu_exec_ctx *ctx, attu_stage *root, attu_column ***cols_out,
                 size_t *nrows_out, attu_error *err) {
    xctx x = { .ctx = ctx, .be = ctx->be, .err = err };
    attu_backend_set_interrupt(ctx->cancel, ctx->deadline_ms, ctx->timeout_reason);
    rel *r = run_stage(&x, root);
    for (int i = 0; i < x.nparams; i++) xcol_unref(&x, x.params[i]);
    free(x.params);
    resolve_deferred_error(&x);
    free(x.deferred);
    attu_backend_set_interrupt(NULL, 0, NULL);
    if (!r) { if (!err->set) attu_error_oom(err); return -1; }
    attu_column **cols = calloc((size_t)r->ncols + 1, sizeof *cols);
    if (!cols) { rel_free(&x, r); return attu_error_oom(err); }
    size_t n = r->nrows;
    /* every column's values and validity come down in one download_many
     * (one round trip on the GPU); the validity bytes of a large result go
     * one column at a time through one n-byte buffer instead */
    int nc = r->ncols, nd = 0, nvalid = 0;
    for (int i = 0; i < nc; i++) nvalid += r->cols[i]->valid != NULL;
    bool batched = (size_t)nvalid * n <= ((size_t)16 << 20);
    size_t vbytes = batched ? (size_t)nvalid * n : n;
    uint8_t *vb = malloc(vbytes ? vbytes : 1);
    void **host = calloc(2 * (size_t)nc + 1, sizeof *host);
    const attu_buf **bufs = calloc(2 * (size_t)nc + 1, sizeof *bufs);
    size_t *bytes = calloc(2 * (size_t)nc + 1, sizeof *bytes);
    int *vat = calloc((size_t)nc + 1, sizeof *vat);   /* column i's validity: vb + vat[i] * n */
    int rc = vb && host && bufs && bytes && vat ? 0 : attu_error_oom(err);
    for (int i = 0, v = 0; i < nc && !rc; i++) {
        xcol *c = r->cols[i];
        attu_column *h = attu_column_new(c->type, n ? n : 1, err);
        if (!h) { rc = -1; break; }
        cols[i] = h;
        h->length = n;
        host[nd] = h->data; bufs[nd] = c->data; bytes[nd++] = n * attu_type_width(c->type.id);
        if (c->valid && batched) { vat[i] = v; host[nd] = vb + (size_t)v++ * n; bufs[nd] = c->valid; bytes[nd++] = n; }
        if (c->dict) { if (h->dict) attu_dictionary_unref(h->dict); h->dict = attu_dictionary_ref(c->dict); }
    }
    if (!rc) {
        if (x.be->download_many) rc = x.be->download_many(x.be, nd, host, bufs, bytes, err);
        else
            for (int k = 0; k < nd && !rc; k++) rc = x.be->download(x.be, host[k], bufs[k], 0, bytes[k], err);
    }
    for (int i = 0; i < nc && !rc; i++) {
        xcol *c = r->cols[i];
        if (!c->valid) continue;
        const uint8_t *v = vb + (batched ? (size_t)vat[i] * n : 0);
        if (!batched && x.be->download(x.be, vb, c->valid, 0, n, err)) { rc = -1; break; }
        bool anynull = false;
        for (size_t k = 0; k < n; k++) if (!v[k]) { anynull = true; break; }
        if (!anynull) continue;
        if (attu_column_ensure_validity(cols[i], err)) { rc = -1; break; }
        for (size_t k = 0; k < n; k++) if (!v[k]) attu_column_set_null(cols[i], k, true);
    }
    free(vat);
    free(host); free(bufs); free(bytes);
    free(vb);
    rel_free(&x, r);
    if (rc) {
        for (int i = 0; i < root->ncols; i++) attu_column_free(cols[i]);
        free(cols);
        return -1;
    }
    *cols_out = cols;
    *nrows_out = n;
    return 0;
}
