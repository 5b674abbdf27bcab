/*
 * executor_srf.c - the SRF stage: generate_series over each input row, as
 * PostgreSQL 15's generate_series_int4 / _int8 / _numeric / _timestamp and
 * its ProjectSet (several functions in lockstep, the shorter series NULL
 * past their end).
 *
 * The arguments are evaluated on the backend (eval) and read back: there is
 * one argument row per input row, while the series may be any length. The
 * series are then written on the host a chunk at a time and uploaded into
 * the output columns, with each output row's input row (the index the input
 * columns are gathered by). PostgreSQL steps every series by repeated
 * addition, and so does this file, so numeric display scales and month
 * arithmetic (Jan 31 + 1 month = Feb 28, + 1 month = Mar 28) come out as
 * PostgreSQL's.
 *
 * WITH ORDINALITY is one more series (attu_stage_srf.ordinal) numbering
 * each input row's lockstep rows 1, 2, ... as long as the longest.
 *
 * A LEFT JOIN (outer) keeps the rows passing its ON condition and pads
 * the input rows left without one (left_join_rows).
 *
 * Every count is known before anything is allocated: a series that would
 * not fit in memory fails with 53200 first, and the host loops poll the
 * query's cancel flag and deadline (57014).
 */
#include "engine/executor_internal.h"
#include "engine/timezone.h"
#include "engine/interval.h"
#include "engine/numeric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SRF_CHUNK = 65536 };          /* rows written on the host between uploads */

/* One function's arguments on the host, one row per input row. */
typedef struct srf_args {
    attu_type_id t;
    void    *start, *stop, *step;    /* slots of the function's types (step: INT64 presence for TIMESTAMP) */
    uint8_t *vstart, *vstop, *vstep; /* validity bytes, NULL = all valid */
    int64_t *count;                  /* rows each input row's series has */
    bool     padded;                 /* some row's series is shorter than the row's longest */
} srf_args;

static int step_zero(xctx *x) {
    return attu_error_set(x->err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "step size cannot equal zero");
}

static int ts_out_of_range(xctx *x) {
    return attu_error_set(x->err, ATTU_SQLSTATE_DATETIME_OVERFLOW, 0, "timestamp out of range");
}

/* The most rows a series may have (the whole stage's output): past it the
 * result could not be held, so the stage fails with 53200 before it
 * allocates. On the CPU backend the bound is the host memory left; a GPU's
 * allocations fail by themselves, so only the int64 bound applies there. */
static int64_t row_cap(xctx *x, size_t row_bytes) {
    int64_t cap = INT64_MAX / 64;
    if (x->be->kind == ATTU_DEVICE_KIND_CPU) {
        double avail = host_available_bytes();
        if (avail > 0) {
            double rows = avail * 0.8 / (double)(row_bytes ? row_bytes : 1);
            if (rows < (double)cap) cap = (int64_t)rows;
        }
    }
    return cap;
}

static int too_many_rows(xctx *x, int64_t cap, size_t row_bytes) {
    attu_error_set(x->err, ATTU_SQLSTATE_OUT_OF_MEMORY, 0, "out of memory");
    attu_error_set_detail(x->err, "generate_series would produce more than %lld rows (%zu bytes a row).",
                          (long long)cap, row_bytes);
    return -1;
}

/* ---- counting ---------------------------------------------------------------- */

/* Rows of an integer series: PostgreSQL stops after the last value that
 * does not pass stop, and at the type's end without overflowing. */
static __int128 int_count(int64_t a, int64_t b, int64_t st) {
    if (st > 0) return b < a ? 0 : ((__int128)b - a) / st + 1;
    return b > a ? 0 : ((__int128)a - b) / -(__int128)st + 1;
}

/* v * 10^k in 128 bits; false when it does not fit. */
static bool scale_up(__int128 v, int k, __int128 *out) {
    for (int i = 0; i < k; i++)
        if (__builtin_mul_overflow(v, 10, &v)) return false;
    *out = v;
    return true;
}

/* Rows of a numeric series: the three values at their common scale as
 * 128-bit integers, so the count is exact where attu's 36 digits could not
 * hold the difference (-9e35 .. 9e35). A count past int64 (a tiny step) is
 * INT64_MAX: more rows than any memory holds. */
static int numeric_count(xctx *x, attu_numeric a, attu_numeric b, attu_numeric st, __int128 *out) {
    int dir = st.m > 0 ? 1 : -1, c = attu_numeric_cmp(a, b);
    if ((dir > 0 && c > 0) || (dir < 0 && c < 0)) { *out = 0; return 0; }
    int ds = a.dscale;
    if (b.dscale > ds) ds = b.dscale;
    if (st.dscale > ds) ds = st.dscale;
    __int128 ma, mb, ms, d;
    if (scale_up(a.m, ds - a.dscale, &ma) && scale_up(b.m, ds - b.dscale, &mb) && scale_up(st.m, ds - st.dscale, &ms) &&
        !__builtin_sub_overflow(mb, ma, &d)) {
        __int128 q = d / ms;          /* d and ms have one sign: truncation is the floor */
        *out = q >= INT64_MAX ? (__int128)INT64_MAX : q + 1;
        return 0;
    }
    attu_numeric dn, q;
    if (attu_numeric_sub(b, a, &dn, x->err) || attu_numeric_div_trunc(dn, st, &q, x->err)) return -1;
    int64_t v;
    if (attu_numeric_to_scaled(q, 0, &v)) { *out = (__int128)INT64_MAX; return 0; }
    *out = (__int128)v + 1;
    return 0;
}

/* Rows of a timestamp series, by PostgreSQL's loop: emit while the value
 * does not pass stop, then step; a step leaving the timestamp range is
 * 22008 (PostgreSQL computes the value after the last one too). Steps
 * without months are fixed and counted by division; month steps are walked
 * (at most `cap` of them). */
static int ts_count(xctx *x, const attu_tz *zone, int64_t a, int64_t b, attu_interval iv, int64_t cap, __int128 *out) {
    int dir = attu_interval_sign(iv);
    if ((dir > 0 && a > b) || (dir < 0 && a < b)) { *out = 0; return 0; }
    if (a == INT64_MAX || a == INT64_MIN)
        /* PostgreSQL 15 would repeat the infinity until cancelled */
        return attu_error_set(x->err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "start value cannot be infinity");
    if (!iv.months && !(zone && iv.days)) {
        __int128 st = (__int128)iv.days * 86400000000LL + iv.usec;
        __int128 k = dir > 0 ? ((__int128)b - a) / st : ((__int128)a - b) / -st;   /* steps up to the last value */
        if (k + 1 > cap) { *out = k + 1; return 0; }
        int64_t last = (int64_t)(a + k * st), next;
        if (zone ? attu_timestamptz_add_interval(zone, last, iv, &next) : attu_timestamp_add_interval(last, iv, &next))
            return ts_out_of_range(x);
        *out = k + 1;
        return 0;
    }
    int64_t cur = a;
    __int128 k = 0;
    while (dir > 0 ? cur <= b : cur >= b) {
        if (++k > cap) break;
        if ((k & 0xffff) == 0 && check_stop(x)) return -1;
        if (zone ? attu_timestamptz_add_interval(zone, cur, iv, &cur) : attu_timestamp_add_interval(cur, iv, &cur))
            return ts_out_of_range(x);
    }
    *out = k;
    return 0;
}

static bool is_valid(const uint8_t *v, size_t r) { return !v || v[r]; }

/* The series lengths of every function for every input row into
 * f[i].count and their lockstep maximum into rows[]; *total the sum. */
static int count_all(xctx *x, const attu_stage *s, srf_args *f, size_t n, int64_t *rows, int64_t cap,
                     size_t row_bytes, int64_t *total) {
    __int128 sum = 0;
    /* a LIMIT above reads only the first `need` rows: the series stop there
     * (rows after it are neither counted nor checked, as PostgreSQL never
     * asks for them) */
    int64_t need = s->limit >= 0 ? s->limit : -1;
    if (need >= 0 && need < cap) cap = need;
    for (size_t r = 0; r < n; r++) {
        if (need >= 0 && sum >= need) { for (int i = 0; i < s->nsrfs; i++) f[i].count[r] = 0; rows[r] = 0; continue; }
        if ((r & 0xffff) == 0xffff && check_stop(x)) return -1;
        int64_t most = 0;
        bool over = false;      /* past the cap: raised once every function of the row
                                   had its say (PostgreSQL calls each before any ends,
                                   so a zero step of a later one comes first) */
        for (int i = 0; i < s->nsrfs; i++) {
            srf_args *a = &f[i];
            __int128 c = 0;
            if (s->srfs[i].ordinal) continue;   /* as long as the others: below */
            if (is_valid(a->vstart, r) && is_valid(a->vstop, r) && is_valid(a->vstep, r)) {
                switch (a->t) {
                case ATTU_TYPE_INT32: {
                    int32_t st = ((int32_t *)a->step)[r];
                    if (!st) return step_zero(x);
                    c = int_count(((int32_t *)a->start)[r], ((int32_t *)a->stop)[r], st);
                    break;
                }
                case ATTU_TYPE_INT64: {
                    int64_t st = ((int64_t *)a->step)[r];
                    if (!st) return step_zero(x);
                    c = int_count(((int64_t *)a->start)[r], ((int64_t *)a->stop)[r], st);
                    break;
                }
                case ATTU_TYPE_NUMERIC: {
                    attu_numeric st = attu_numeric_unpack((char *)a->step + 16 * r);
                    /* PostgreSQL's generate_series_step_numeric: no NaN
                     * nor infinity, start, stop then step */
                    attu_numeric ends[3] = { attu_numeric_unpack((char *)a->start + 16 * r),
                                             attu_numeric_unpack((char *)a->stop + 16 * r), st };
                    static const char *const what[3] = { "start value", "stop value", "step size" };
                    for (int k = 0; k < 3; k++)
                        if (attu_numeric_is_special(ends[k]))
                            return attu_error_set(x->err, ATTU_SQLSTATE_INVALID_PARAMETER, 0, "%s cannot be %s", what[k],
                                                  attu_numeric_is_nan(ends[k]) ? "NaN" : "infinity");
                    if (st.m == 0) return step_zero(x);
                    if (numeric_count(x, attu_numeric_unpack((char *)a->start + 16 * r),
                                      attu_numeric_unpack((char *)a->stop + 16 * r), st, &c)) return -1;
                    break;
                }
                case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIMESTAMPTZ: {
                    attu_interval iv = { s->srfs[i].step_months, s->srfs[i].step_days, s->srfs[i].step_usec };
                    const attu_tz *zone = s->srfs[i].type.id == ATTU_TYPE_TIMESTAMPTZ ? attu_tz_by_id(s->srfs[i].zone) : NULL;
                    if (!attu_interval_sign(iv)) return step_zero(x);
                    if (ts_count(x, zone, ((int64_t *)a->start)[r], ((int64_t *)a->stop)[r], iv, cap, &c)) return -1;
                    break;
                }
                default:
                    return attu_error_set(x->err, ATTU_SQLSTATE_INTERNAL, 0, "generate_series over an unexpected type");
                }
            }
            if (need >= 0 && c > need - sum) c = need - sum;     /* the limit's last rows */
            if (c > cap) { over = true; c = 0; }
            a->count[r] = (int64_t)c;
            if (c > most) most = (int64_t)c;
        }
        if (over) return too_many_rows(x, cap, row_bytes);
        for (int i = 0; i < s->nsrfs; i++) if (s->srfs[i].ordinal) f[i].count[r] = most;
        for (int i = 0; i < s->nsrfs; i++) if (f[i].count[r] < most) f[i].padded = true;
        rows[r] = most;
        sum += most;
        if (sum > cap) return too_many_rows(x, cap, row_bytes);
    }
    *total = (int64_t)sum;
    return 0;
}

/* ---- producing -------------------------------------------------------------------- */

/* One function's output column and its chunk on the host. */
typedef struct srf_out {
    xcol    *col;
    char    *buf;          /* SRF_CHUNK slots */
    uint8_t *valid;        /* SRF_CHUNK bytes, when padded */
    size_t   width;
    /* the running value of the current input row's series */
    int64_t  cur_i;
    attu_numeric cur_n;
} srf_out;

static int flush(xctx *x, srf_out *o, int nf, int64_t *idx_host, attu_buf *idx, size_t at, size_t k) {
    attu_backend *be = x->be;
    for (int i = 0; i < nf; i++) {
        if (be->upload(be, o[i].col->data, at * o[i].width, o[i].buf, k * o[i].width, x->err)) return -1;
        if (o[i].valid && be->upload(be, o[i].col->valid, at, o[i].valid, k, x->err)) return -1;
    }
    if (idx && be->upload(be, idx, at * sizeof(int64_t), idx_host, k * sizeof(int64_t), x->err)) return -1;
    return check_stop(x);
}

/* Writes every series (rows[r] lockstep rows for input row r) into the
 * output columns and, when idx is given, each output row's input row. */
static int produce(xctx *x, const attu_stage *s, srf_args *f, srf_out *o, const int64_t *rows, size_t n,
                   attu_buf *idx) {
    int nf = s->nsrfs;
    int64_t *idx_host = idx ? malloc(sizeof(int64_t) * SRF_CHUNK) : NULL;
    if (idx && !idx_host) return attu_error_oom(x->err);
    size_t at = 0, k = 0;        /* rows uploaded; rows in the chunk */
    int rc = 0;
    for (size_t r = 0; r < n && !rc; r++) {
        if (!rows[r]) continue;
        for (int i = 0; i < nf; i++) {
            srf_args *a = &f[i];
            if (!a->count[r]) continue;
            switch (a->t) {
            case ATTU_TYPE_INT32: o[i].cur_i = ((int32_t *)a->start)[r]; break;
            case ATTU_TYPE_INT64: case ATTU_TYPE_TIMESTAMP: case ATTU_TYPE_TIMESTAMPTZ: o[i].cur_i = ((int64_t *)a->start)[r]; break;
            case ATTU_TYPE_NUMERIC: o[i].cur_n = attu_numeric_unpack((char *)a->start + 16 * r); break;
            default: break;
            }
        }
        for (int64_t j = 0; j < rows[r] && !rc; j++) {
            for (int i = 0; i < nf && !rc; i++) {
                srf_args *a = &f[i];
                bool have = j < a->count[r];
                if (o[i].valid) o[i].valid[k] = have;
                char *slot = o[i].buf + k * o[i].width;
                if (!have) { memset(slot, 0, o[i].width); continue; }
                bool last = j + 1 == a->count[r];
                if (s->srfs[i].ordinal) { *(int64_t *)slot = j + 1; continue; }
                switch (a->t) {
                case ATTU_TYPE_INT32:
                    *(int32_t *)slot = (int32_t)o[i].cur_i;
                    if (!last) o[i].cur_i += ((int32_t *)a->step)[r];   /* stays within [start, stop] */
                    break;
                case ATTU_TYPE_INT64:
                    *(int64_t *)slot = o[i].cur_i;
                    if (!last) o[i].cur_i += ((int64_t *)a->step)[r];
                    break;
                case ATTU_TYPE_NUMERIC:
                    attu_numeric_pack(o[i].cur_n, slot);
                    if (!last) rc = attu_numeric_add(o[i].cur_n, attu_numeric_unpack((char *)a->step + 16 * r), &o[i].cur_n, x->err);
                    break;
                case ATTU_TYPE_TIMESTAMP: {
                    *(int64_t *)slot = o[i].cur_i;
                    attu_interval iv = { s->srfs[i].step_months, s->srfs[i].step_days, s->srfs[i].step_usec };
                    if (!last && attu_timestamp_add_interval(o[i].cur_i, iv, &o[i].cur_i)) rc = ts_out_of_range(x);
                    break;
                }
                case ATTU_TYPE_TIMESTAMPTZ: {   /* steps of days and months on the session zone's wall clock */
                    *(int64_t *)slot = o[i].cur_i;
                    attu_interval iv = { s->srfs[i].step_months, s->srfs[i].step_days, s->srfs[i].step_usec };
                    if (!last && attu_timestamptz_add_interval(attu_tz_by_id(s->srfs[i].zone), o[i].cur_i, iv, &o[i].cur_i))
                        rc = ts_out_of_range(x);
                    break;
                }
                default: break;
                }
            }
            if (idx_host) idx_host[k] = (int64_t)r;
            if (++k == SRF_CHUNK && !rc) {
                rc = flush(x, o, nf, idx_host, idx, at, k);
                at += k;
                k = 0;
            }
        }
    }
    if (!rc && k) rc = flush(x, o, nf, idx_host, idx, at, k);
    free(idx_host);
    return rc;
}

/* LEFT JOIN: the rows of out (the series of every input row, rows[r] of
 * them for row r, in input order) that pass the ON condition (the stage's
 * residual), and for an input row with none of them one row whose series
 * columns are NULL; rows stay in input order. */
static rel *left_join_rows(xctx *x, const attu_stage *s, const rel *in, const rel *out, const int64_t *rows, size_t n,
                           int64_t total) {
    uint8_t *pass = NULL, *pvalid = NULL;
    int64_t *inrow = NULL, *src = NULL;
    attu_buf *ib = NULL, *sb = NULL;
    xcol *m = NULL;
    rel *res = NULL, *g = NULL;
    int nf = s->nsrfs;
    if (s->residual.n && total) {
        if (eval_exprs(x, &s->residual, out, &m)) goto done;
        if (!(pass = malloc((size_t)total)) || (m->valid && !(pvalid = malloc((size_t)total)))) { attu_error_oom(x->err); goto done; }
        if (x->be->download(x->be, pass, m->data, 0, (size_t)total, x->err)) goto done;
        if (m->valid && x->be->download(x->be, pvalid, m->valid, 0, (size_t)total, x->err)) goto done;
    }
    /* the rows kept: each input row's passing series rows, else a pad */
    size_t f = 0;
    int64_t pos = 0;
    for (size_t r = 0; r < n; r++) {
        size_t kept = 0;
        for (int64_t j = 0; j < rows[r]; j++, pos++) kept += !pass || (pass[pos] && (!pvalid || pvalid[pos]));
        f += kept ? kept : 1;
    }
    if (!(inrow = malloc(sizeof(int64_t) * (f ? f : 1))) || !(src = malloc(sizeof(int64_t) * (f ? f : 1)))) {
        attu_error_oom(x->err);
        goto done;
    }
    size_t k = 0;
    pos = 0;
    for (size_t r = 0; r < n; r++) {
        size_t k0 = k;
        for (int64_t j = 0; j < rows[r]; j++, pos++)
            if (!pass || (pass[pos] && (!pvalid || pvalid[pos]))) { inrow[k] = (int64_t)r; src[k++] = pos; }
        if (k == k0) { inrow[k] = (int64_t)r; src[k++] = -1; }
    }
    if (check_stop(x)) goto done;
    if (!(ib = buf_i64(x, f)) || !(sb = buf_i64(x, f))) goto done;
    if (x->be->upload(x->be, ib, 0, inrow, sizeof(int64_t) * f, x->err) ||
        x->be->upload(x->be, sb, 0, src, sizeof(int64_t) * f, x->err)) goto done;
    if (!(g = rel_gather(x, in, ib, f, false)) || !(res = rel_new(x, s->ncols, f))) goto done;
    for (int i = 0; i < in->ncols; i++) { res->cols[i] = g->cols[i]; g->cols[i] = NULL; }
    for (int i = 0; i < nf; i++) {
        /* a pad's index is -1: a NULL */
        const xcol *c = out->cols[in->ncols + i];
        xcol *d = xcol_new(x, c->type, f, true);
        if (!d) goto done;
        res->cols[in->ncols + i] = d;
        if (x->be->gather(x->be, d->data, d->valid, c->data, c->valid, attu_type_width(c->type.id), sb, f, x->err)) goto done;
    }
done:
    xcol_unref(x, m);
    free(pass); free(pvalid); free(inrow); free(src);
    free_buf(x, ib); free_buf(x, sb);
    rel_free(x, g);
    if (x->err->set) { rel_free(x, res); return NULL; }
    return res;
}

rel *run_srf(xctx *x, attu_stage *s, rel *in) {
    int nf = s->nsrfs, na = 3 * nf;
    size_t n = in->nrows;
    if (n == 0) return rel_empty(x, s);
    rel *out = NULL;
    xcol **ac = calloc((size_t)na + 1, sizeof *ac);
    srf_args *f = calloc((size_t)nf + 1, sizeof *f);
    srf_out *o = calloc((size_t)nf + 1, sizeof *o);
    int64_t *rows = malloc(sizeof(int64_t) * n);
    attu_buf *idx = NULL;
    if (!ac || !f || !o || !rows) { attu_error_oom(x->err); goto done; }
    if (eval_exprs(x, &s->args, in, ac)) goto done;
    /* the arguments, read back */
    for (int i = 0; i < nf; i++) {
        f[i].t = s->srfs[i].type.id;
        void **slots[3] = { &f[i].start, &f[i].stop, &f[i].step };
        uint8_t **valid[3] = { &f[i].vstart, &f[i].vstop, &f[i].vstep };
        for (int j = 0; j < 3; j++) {
            xcol *c = ac[3 * i + j];
            size_t w = attu_type_width(c->type.id);
            if (!(*slots[j] = malloc(w * n)) || (c->valid && !(*valid[j] = malloc(n)))) { attu_error_oom(x->err); goto done; }
            if (x->be->download(x->be, *slots[j], c->data, 0, w * n, x->err)) goto done;
            if (c->valid && x->be->download(x->be, *valid[j], c->valid, 0, n, x->err)) goto done;
        }
        if (!(f[i].count = calloc(n, sizeof(int64_t)))) { attu_error_oom(x->err); goto done; }
    }
    /* what an output row holds: the input columns gathered, the index,
     * each function's slot and validity byte */
    size_t row_bytes = sizeof(int64_t);
    for (int i = 0; i < in->ncols; i++)
        if (!in->cols[i]->pruned) row_bytes += attu_type_width(in->cols[i]->type.id) + (in->cols[i]->valid ? 1 : 0);
    for (int i = 0; i < nf; i++) row_bytes += attu_type_width(s->srfs[i].type.id) + 1;
    int64_t cap = row_cap(x, row_bytes), total = 0;
    if (count_all(x, s, f, n, rows, cap, row_bytes, &total)) goto done;
    if (total == 0) {
        out = rel_empty(x, s);
        goto outer;
    }
    for (int i = 0; i < nf; i++) {
        o[i].width = attu_type_width(f[i].t);
        if (!(o[i].col = xcol_new(x, s->srfs[i].type, (size_t)total, f[i].padded))) goto done;
        if (!(o[i].buf = malloc(o[i].width * SRF_CHUNK)) || (f[i].padded && !(o[i].valid = malloc(SRF_CHUNK)))) {
            attu_error_oom(x->err);
            goto done;
        }
    }
    if (in->ncols && !(idx = buf_i64(x, (size_t)total))) goto done;
    if (produce(x, s, f, o, rows, n, idx)) goto done;
    rel *g = NULL;
    if (in->ncols && !(g = rel_gather(x, in, idx, (size_t)total, false))) goto done;
    if (!(out = rel_new(x, s->ncols, (size_t)total))) { rel_free(x, g); goto done; }
    for (int i = 0; i < in->ncols; i++) { out->cols[i] = g->cols[i]; g->cols[i] = NULL; }
    rel_free(x, g);
    for (int i = 0; i < nf; i++) { out->cols[in->ncols + i] = o[i].col; o[i].col = NULL; }
outer:
    if (out && s->outer) {
        rel *lj = left_join_rows(x, s, in, out, rows, n, total);
        rel_free(x, out);
        out = lj;
    }
done:
    if (ac) for (int i = 0; i < na; i++) xcol_unref(x, ac[i]);
    free(ac);
    if (f)
        for (int i = 0; i < nf; i++) {
            free(f[i].start); free(f[i].stop); free(f[i].step);
            free(f[i].vstart); free(f[i].vstop); free(f[i].vstep);
            free(f[i].count);
        }
    free(f);
    if (o)
        for (int i = 0; i < nf; i++) { xcol_unref(x, o[i].col); free(o[i].buf); free(o[i].valid); }
    free(o);
    free(rows);
    free_buf(x, idx);
    if (x->err->set) { rel_free(x, out); return NULL; }
    return out;
}
