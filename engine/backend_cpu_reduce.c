/* backend_cpu_reduce.c - slot movement, comparisons and accumulators for the
 * CPU backend (see backend_cpu_reduce.h). */
#include "engine/backend_cpu_reduce.h"
#include "engine/interval.h"
#include "engine/numeric.h"
#include "engine/regr_accum.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static inline void load_one(const attu_vec *v, int64_t row, attu_slot *o) {
    const void *d = v->data->ptr;
    o->null = v->valid ? !((const uint8_t *)v->valid->ptr)[row] : 0;
    o->len = 0;
    switch (v->type.id) {
    case ATTU_TYPE_BOOL: o->v.i = ((const uint8_t *)d)[row]; break;
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: o->v.i = ((const int32_t *)d)[row]; break;
    case ATTU_TYPE_FLOAT32: o->v.f = ((const float *)d)[row]; break;
    case ATTU_TYPE_FLOAT64: o->v.f = ((const double *)d)[row]; break;
    case ATTU_TYPE_NUMERIC:   /* the register points at the column's slot */
    case ATTU_TYPE_INTERVAL:
        o->v.s = (const char *)d + (size_t)row * 16;
        o->len = 16;
        break;
    case ATTU_TYPE_TEXT: {
        int32_t code = ((const int32_t *)d)[row];
        if (o->null || !v->dict || code < 0 || code >= v->dict->count) { o->v.s = ""; break; }
        size_t len;
        o->v.s = attu_dictionary_get(v->dict, code, &len);
        o->len = (uint32_t)len;
        break;
    }
    default: o->v.i = ((const int64_t *)d)[row]; break;
    }
}

void attu_cpu_load_slots(const attu_vec *v, size_t base, size_t n, attu_slot *out) {
    for (size_t r = 0; r < n; r++) load_one(v, (int64_t)(base + r), &out[r]);
}
void attu_cpu_load_slots_idx(const attu_vec *v, const int64_t *rows, size_t n, attu_slot *out) {
    for (size_t r = 0; r < n; r++) {
        if (rows[r] < 0) { out[r].null = 1; out[r].v.i = 0; out[r].len = 0; out[r].v.s = ""; continue; }
        load_one(v, rows[r], &out[r]);
    }
}
void attu_cpu_broadcast_slot(const attu_vec *v, int64_t row, size_t n, attu_slot *out) {
    attu_slot s;
    if (row < 0) { memset(&s, 0, sizeof s); s.null = 1; s.v.s = ""; }
    else load_one(v, row, &s);
    for (size_t r = 0; r < n; r++) out[r] = s;
}

static inline void store_one(attu_out *o, size_t row, const attu_slot *s) {
    void *d = o->data->ptr;
    if (o->valid) ((uint8_t *)o->valid->ptr)[row] = !s->null;
    if (s->null) {
        switch (attu_type_width(o->type.id)) {
        case 1: ((uint8_t *)d)[row] = 0; break;
        case 4: ((int32_t *)d)[row] = 0; break;
        case 16: memset((char *)d + row * 16, 0, 16); break;
        default: ((int64_t *)d)[row] = 0; break;
        }
        return;
    }
    switch (o->type.id) {
    case ATTU_TYPE_NUMERIC: case ATTU_TYPE_INTERVAL: memcpy((char *)d + row * 16, s->v.s, 16); break;
    case ATTU_TYPE_BOOL: ((uint8_t *)d)[row] = (uint8_t)(s->v.i != 0); break;
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: case ATTU_TYPE_TEXT: ((int32_t *)d)[row] = (int32_t)s->v.i; break;
    case ATTU_TYPE_FLOAT32: ((float *)d)[row] = (float)s->v.f; break;
    case ATTU_TYPE_FLOAT64: ((double *)d)[row] = s->v.f; break;
    default: ((int64_t *)d)[row] = s->v.i; break;
    }
}

void attu_cpu_store_slots(attu_out *o, size_t base, size_t n, const attu_slot *s) {
    for (size_t r = 0; r < n; r++) store_one(o, base + r, &s[r]);
}

static inline int fcmp(double a, double b) {
    if (isnan(a)) return isnan(b) ? 0 : 1;
    if (isnan(b)) return -1;
    return a < b ? -1 : a > b;
}

int attu_cpu_value_cmp(const attu_vec *v, int64_t i, int64_t j) {
    const void *d = v->data->ptr;
    switch (v->type.id) {
    case ATTU_TYPE_BOOL: { int a = ((const uint8_t *)d)[i], b = ((const uint8_t *)d)[j]; return (a > b) - (a < b); }
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: case ATTU_TYPE_TEXT: {
        int32_t a = ((const int32_t *)d)[i], b = ((const int32_t *)d)[j]; return (a > b) - (a < b); }
    case ATTU_TYPE_FLOAT32: return fcmp(((const float *)d)[i], ((const float *)d)[j]);
    case ATTU_TYPE_FLOAT64: return fcmp(((const double *)d)[i], ((const double *)d)[j]);
    case ATTU_TYPE_NUMERIC:
        return attu_numeric_cmp(attu_numeric_unpack((const char *)d + (size_t)i * 16),
                                attu_numeric_unpack((const char *)d + (size_t)j * 16));
    default: { int64_t a = ((const int64_t *)d)[i], b = ((const int64_t *)d)[j]; return (a > b) - (a < b); }
    }
}

int64_t attu_cpu_key_bits(const attu_vec *v, int64_t i) {
    const void *d = v->data->ptr;
    double f;
    switch (v->type.id) {
    case ATTU_TYPE_BOOL: return ((const uint8_t *)d)[i];
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: case ATTU_TYPE_TEXT: return ((const int32_t *)d)[i];
    case ATTU_TYPE_FLOAT32: f = ((const float *)d)[i]; break;
    case ATTU_TYPE_FLOAT64: f = ((const double *)d)[i]; break;
    default: return ((const int64_t *)d)[i];
    }
    if (f == 0) f = 0;              /* -0 equals 0 */
    if (isnan(f)) f = NAN;
    uint64_t u;
    memcpy(&u, &f, sizeof u);
    u = (u >> 63) ? ~u : (u | (1ULL << 63));
    return (int64_t)(u ^ (1ULL << 63));
}

/* ---- accumulators ---------------------------------------------------------- */

typedef union num { int64_t i; double f; } num;

struct attu_reducer {
    attu_reduce_op op;
    int   fl;          /* input is float class */
    int   f4;          /* input is FLOAT32: SUM adds in single precision */
    int64_t cnt;
    int   has;
    num   acc;
    double sx, sxx;            /* VAR_M2, float input: PostgreSQL's float8_accum state */
    __int128 isx, isxx;        /* VAR_M2, integer input: exact sums of x and x*x */
    attu_regr_kind regr;       /* REGR: which aggregate's final value (spec k) */
    attu_regr_state rs;        /* REGR: PostgreSQL's float8_regr_accum state */
    char *sbuf; size_t slen, scap;   /* STRING_AGG: the text so far */
    /* NUMERIC mode (the input or the output is NUMERIC): exact sums with
     * per-value scales; in_scale is a DECIMAL input's scale */
    int   nm, in_scale;
    attu_type_id in_t;
    attu_numeric nacc, nsx, nsxx;
    /* INTERVAL mode (sum, min, max, any of intervals): iacc */
    int   iv;
    attu_interval iacc;
    int   k, n;        /* top-k capacity and fill */
    num  *vals;
    int64_t *pay;
    uint8_t *paynull;
};

attu_reducer *attu_reducer_new(const attu_reduce_spec *spec) {
    attu_reducer *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->op = spec->op;
    r->fl = attu_type_mclass(spec->in.type.id) == ATTU_MC_FLOAT;
    r->f4 = spec->in.type.id == ATTU_TYPE_FLOAT32;
    r->in_t = spec->in.type.id;
    r->in_scale = spec->in.type.id == ATTU_TYPE_DECIMAL ? spec->in.type.scale : 0;
    r->nm = (spec->in.type.id == ATTU_TYPE_NUMERIC || spec->out_type.id == ATTU_TYPE_NUMERIC) &&
            spec->op != ATTU_REDUCE_COUNT_STAR && spec->op != ATTU_REDUCE_COUNT;
    r->iv = spec->in.type.id == ATTU_TYPE_INTERVAL && spec->op != ATTU_REDUCE_COUNT_STAR && spec->op != ATTU_REDUCE_COUNT;
    r->regr = spec->op == ATTU_REDUCE_REGR ? (attu_regr_kind)spec->k : (attu_regr_kind)0;
    if (spec->op >= ATTU_REDUCE_NTH_SMALLEST && spec->op <= ATTU_REDUCE_NTH_LARGEST_ARG) {
        r->k = spec->k < 1 ? 1 : spec->k;
        r->vals = calloc((size_t)r->k, sizeof *r->vals);
        r->pay = calloc((size_t)r->k, sizeof *r->pay);
        r->paynull = calloc((size_t)r->k, 1);
        if (!r->vals || !r->pay || !r->paynull) { attu_reducer_free(r); return NULL; }
    }
    return r;
}

void attu_reducer_free(attu_reducer *r) {
    if (!r) return;
    free(r->vals); free(r->pay); free(r->paynull); free(r->sbuf);
    free(r);
}

void attu_reducer_reset(attu_reducer *r) {
    r->cnt = 0; r->has = 0; r->acc.i = 0; r->n = 0;
    r->sx = r->sxx = 0; r->isx = r->isxx = 0;
    memset(&r->rs, 0, sizeof r->rs);
    r->slen = 0;
    memset(&r->nacc, 0, sizeof r->nacc); r->nsx = r->nsxx = r->nacc;
    memset(&r->iacc, 0, sizeof r->iacc);
}

static int text_append(attu_reducer *r, const char *s, size_t n, attu_error *err) {
    if (r->slen + n > UINT32_MAX)
        return attu_error_set(err, "54000", 0, "out of memory: string_agg result exceeds 4 GB");
    if (r->slen + n > r->scap) {
        size_t cap = r->scap ? r->scap * 2 : 64;
        while (cap < r->slen + n) cap *= 2;
        char *b = realloc(r->sbuf, cap);
        if (!b) return attu_error_oom(err);
        r->sbuf = b; r->scap = cap;
    }
    if (n) memcpy(r->sbuf + r->slen, s, n);
    r->slen += n;
    return 0;
}

int attu_reducer_text(const attu_reducer *r, const char **s, size_t *len) {
    *s = r->sbuf ? r->sbuf : "";
    *len = r->slen;
    return r->has;
}

static inline int ncmp(const attu_reducer *r, num a, num b) {
    if (r->fl) return fcmp(a.f, b.f);
    return (a.i > b.i) - (a.i < b.i);
}

static int float_overflow(attu_error *err) {
    return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "value out of range: overflow");
}

/* One float value into the Youngs-Cramer state (count, sx, sxx), exactly as
 * PostgreSQL's float8_accum, which avg, variance and stddev of float
 * inputs share: so the results match it digit for digit, and finite inputs
 * whose sum or sum of squares leaves the double range raise 22003 (an
 * infinite input gives Infinity / NaN instead). r->cnt already counts x. */
static int yc_accum(attu_reducer *r, double x, attu_error *err) {
    double n = (double)r->cnt, osx = r->sx;
    r->sx += x;
    if (r->cnt > 1) {
        double t = x * n - r->sx;
        r->sxx += t * t / (n * (n - 1));
        if (isinf(r->sx) || isinf(r->sxx)) {
            if (!isinf(osx) && !isinf(x)) return float_overflow(err);
            r->sxx = NAN;
        }
    } else r->sxx = (isinf(x) || isnan(x)) ? NAN : 0;
    return 0;
}

static int add(attu_reducer *r, num v, int isnull, int64_t payload, int payload_null, attu_error *err) {
    switch (r->op) {
    case ATTU_REDUCE_COUNT_STAR: r->cnt++; return 0;
    default: break;
    }
    if (isnull) return 0;
    r->cnt++;
    switch (r->op) {
    case ATTU_REDUCE_COUNT: return 0;
    case ATTU_REDUCE_SUM:
        if (r->fl) {
            /* float8pl / float4pl: an infinite sum of finite values is an
             * overflow (22003), not Infinity */
            double s = r->has ? r->acc.f + v.f : v.f;
            if (r->f4) s = (float)s;
            if (isinf(s) && !isinf(v.f) && !(r->has && isinf(r->acc.f))) return float_overflow(err);
            r->acc.f = s;
        } else if (!r->has) r->acc.i = v.i;
        else if (__builtin_add_overflow(r->acc.i, v.i, &r->acc.i))
            return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "bigint out of range");
        r->has = 1;
        return 0;
    case ATTU_REDUCE_AVG_SUM:
        if (r->fl) {
            if (yc_accum(r, v.f, err)) return -1;
            r->acc.f = r->sx;
        } else r->acc.f = (r->has ? r->acc.f : 0) + (double)v.i;
        r->has = 1;
        return 0;
    case ATTU_REDUCE_MIN:
        if (!r->has || ncmp(r, v, r->acc) < 0) r->acc = v;
        r->has = 1;
        return 0;
    case ATTU_REDUCE_MAX:
        if (!r->has || ncmp(r, v, r->acc) > 0) r->acc = v;
        r->has = 1;
        return 0;
    case ATTU_REDUCE_ANY:
        if (!r->has) r->acc = v;
        r->has = 1;
        return 0;
    case ATTU_REDUCE_BIT_AND:
        r->acc.i = r->has ? r->acc.i & v.i : v.i;
        r->has = 1;
        return 0;
    case ATTU_REDUCE_BIT_OR:
        r->acc.i = r->has ? r->acc.i | v.i : v.i;
        r->has = 1;
        return 0;
    case ATTU_REDUCE_BIT_XOR:
        r->acc.i = r->has ? r->acc.i ^ v.i : v.i;
        r->has = 1;
        return 0;
    case ATTU_REDUCE_VAR_M2:
        r->has = 1;
        if (r->fl) {
            if (yc_accum(r, v.f, err)) return -1;
        } else {
            __int128 x = v.i, sq;
            if (__builtin_mul_overflow(x, x, &sq) || __builtin_add_overflow(r->isx, x, &r->isx) ||
                __builtin_add_overflow(r->isxx, sq, &r->isxx))
                return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "value out of range: overflow");
        }
        return 0;
    default: {
        /* top-k: keep the k best in order; equal values keep input order */
        int largest = r->op == ATTU_REDUCE_NTH_LARGEST || r->op == ATTU_REDUCE_NTH_LARGEST_ARG;
        int pos = r->n;
        while (pos > 0) {
            int c = ncmp(r, v, r->vals[pos - 1]);
            if (largest ? c > 0 : c < 0) pos--; else break;
        }
        if (pos >= r->k) return 0;
        int last = r->n < r->k ? r->n : r->k - 1;
        for (int q = last; q > pos; q--) {
            r->vals[q] = r->vals[q - 1]; r->pay[q] = r->pay[q - 1]; r->paynull[q] = r->paynull[q - 1];
        }
        r->vals[pos] = v; r->pay[pos] = payload; r->paynull[pos] = (uint8_t)payload_null;
        if (r->n < r->k) r->n++;
        return 0;
    }
    }
}

/* One value into a NUMERIC-mode accumulator. */
static int add_numeric(attu_reducer *r, attu_numeric v, int isnull, attu_error *err) {
    if (isnull) return 0;
    r->cnt++;
    attu_numeric t;
    switch (r->op) {
    case ATTU_REDUCE_SUM:
        if (!r->has) r->nacc = v;
        else if (attu_numeric_add(r->nacc, v, &r->nacc, err)) return -1;
        break;
    /* of equal values of different scales the later one wins, as
     * PostgreSQL's numeric_smaller / numeric_larger(state, value) return
     * the value unless the state is strictly smaller / larger */
    case ATTU_REDUCE_MIN:
        if (!r->has || attu_numeric_cmp(v, r->nacc) <= 0) r->nacc = v;
        break;
    case ATTU_REDUCE_MAX:
        if (!r->has || attu_numeric_cmp(v, r->nacc) >= 0) r->nacc = v;
        break;
    case ATTU_REDUCE_ANY:
        if (!r->has) r->nacc = v;
        break;
    case ATTU_REDUCE_VAR_M2: {
        /* nacc = n * sum(x^2) - sum(x)^2, exact: the numerator PostgreSQL's
         * numeric_stddev_internal divides by n(n-1) or n^2; kept current
         * so that a numerator past 36 digits raises 22003 here */
        attu_numeric nn = attu_numeric_from_int64(r->cnt), a, b;
        if (attu_numeric_mul(v, v, &t, err) || attu_numeric_add(r->nsx, v, &r->nsx, err) ||
            attu_numeric_add(r->nsxx, t, &r->nsxx, err) || attu_numeric_mul(nn, r->nsxx, &a, err) ||
            attu_numeric_mul(r->nsx, r->nsx, &b, err) || attu_numeric_sub(a, b, &r->nacc, err)) return -1;
        break;
    }
    default:
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "this aggregate is not supported for numeric values");
    }
    r->has = 1;
    return 0;
}

/* One value into an INTERVAL-mode accumulator: sum (22008 past a field's
 * range), and min / max by the span, a later equal value winning as
 * PostgreSQL's interval_smaller / interval_larger(state, value) return the
 * value unless the state is strictly smaller / larger. */
static int add_interval(attu_reducer *r, const attu_slot *sl, attu_error *err) {
    if (sl->null) return 0;
    attu_interval v;
    memcpy(&v, sl->v.s, sizeof v);
    r->cnt++;
    switch (r->op) {
    case ATTU_REDUCE_SUM:
        if (!r->has) r->iacc = v;
        else if (attu_interval_add(r->iacc, v, &r->iacc, err)) return -1;
        break;
    case ATTU_REDUCE_MIN:
        if (!r->has || attu_interval_cmp(v, r->iacc) <= 0) r->iacc = v;
        break;
    case ATTU_REDUCE_MAX:
        if (!r->has || attu_interval_cmp(v, r->iacc) >= 0) r->iacc = v;
        break;
    case ATTU_REDUCE_ANY:
        if (!r->has) r->iacc = v;
        break;
    default:
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0,
                              "this aggregate is not supported for interval values");
    }
    r->has = 1;
    return 0;
}

/* A NUMERIC-mode input value: a NUMERIC slot, or a DECIMAL's scaled int. */
static attu_numeric numeric_of(const attu_reducer *r, const attu_slot *sl) {
    if (r->in_t == ATTU_TYPE_NUMERIC) return attu_numeric_unpack(sl->v.s);
    return attu_numeric_from_decimal(sl->v.i, r->in_scale);
}

static attu_numeric numeric_in_row(const attu_reducer *r, const attu_vec *v, int64_t row, int *isnull) {
    attu_slot sl;
    memset(&sl, 0, sizeof sl);
    load_one(v, row, &sl);
    *isnull = sl.null;
    return numeric_of(r, &sl);
}

static num load_num(const attu_vec *v, int64_t row, int *isnull, int want_float) {
    attu_slot s;
    num n;
    if (!v->data) { *isnull = 0; n.i = 0; return n; }
    *isnull = v->valid ? !((const uint8_t *)v->valid->ptr)[row] : 0;
    const void *d = v->data->ptr;
    switch (v->type.id) {
    case ATTU_TYPE_BOOL: n.i = ((const uint8_t *)d)[row]; break;
    case ATTU_TYPE_INT16: case ATTU_TYPE_INT32: case ATTU_TYPE_DATE: case ATTU_TYPE_TEXT: n.i = ((const int32_t *)d)[row]; break;
    case ATTU_TYPE_FLOAT32: n.f = ((const float *)d)[row]; break;
    case ATTU_TYPE_FLOAT64: n.f = ((const double *)d)[row]; break;
    default: n.i = ((const int64_t *)d)[row]; break;
    }
    (void)s; (void)want_float;
    return n;
}

/* One (y, x) pair into a REGR accumulator: counted only when neither is
 * NULL, as PostgreSQL's strict float8_regr_accum. */
static int add_regr(attu_reducer *r, double y, int ynull, double x, int xnull, attu_error *err) {
    if (ynull || xnull) return 0;
    if (attu_regr_accum(&r->rs, y, x, err)) return -1;
    r->cnt++;
    r->has = 1;
    return 0;
}

int attu_reducer_add_row(attu_reducer *r, const attu_reduce_spec *spec, int64_t row, attu_error *err) {
    int isnull = 0, pn = 0;
    if (r->op == ATTU_REDUCE_REGR) {
        num y = load_num(&spec->in, row, &isnull, 1), x = load_num(&spec->arg, row, &pn, 1);
        return add_regr(r, y.f, isnull, x.f, pn, err);
    }
    if (r->op == ATTU_REDUCE_STRING_AGG) {
        attu_slot v, sep;
        load_one(&spec->in, row, &v);
        if (v.null) return 0;
        if (r->has && spec->arg.data) {
            load_one(&spec->arg, row, &sep);
            if (!sep.null && text_append(r, sep.v.s, sep.len, err)) return -1;
        }
        r->has = 1;
        r->cnt++;
        return text_append(r, v.v.s, v.len, err);
    }
    if (r->iv) {
        attu_slot sl;
        load_one(&spec->in, row, &sl);
        return add_interval(r, &sl, err);
    }
    if (r->nm) {
        attu_numeric nv = numeric_in_row(r, &spec->in, row, &isnull);
        return add_numeric(r, nv, isnull, err);
    }
    num v = { 0 };
    if (r->op != ATTU_REDUCE_COUNT_STAR) v = load_num(&spec->in, row, &isnull, r->fl);
    int64_t payload = 0;
    if (spec->op == ATTU_REDUCE_NTH_SMALLEST_ARG || spec->op == ATTU_REDUCE_NTH_LARGEST_ARG)
        payload = load_num(&spec->arg, row, &pn, 0).i;
    return add(r, v, isnull, payload, pn, err);
}

int attu_reducer_add_slot(attu_reducer *r, const attu_reduce_spec *spec, const attu_slot *in,
                          int64_t payload, int payload_null, attu_error *err) {
    num v = { 0 };
    int isnull = 0;
    if (r->op == ATTU_REDUCE_STRING_AGG)
        return attu_error_set(err, ATTU_SQLSTATE_FEATURE_NOT_SUPPORTED, 0, "string_agg is not supported here");
    if (r->op == ATTU_REDUCE_REGR) {
        /* the payload is X's raw float64 bits */
        double xv;
        memcpy(&xv, &payload, sizeof xv);
        return add_regr(r, in ? in->v.f : 0, !in || in->null, xv, payload_null, err);
    }
    if (r->iv) {
        if (!in || in->null) return 0;
        return add_interval(r, in, err);
    }
    if (r->nm) {
        if (!in || in->null) return 0;
        return add_numeric(r, numeric_of(r, in), 0, err);
    }
    if (in) { isnull = in->null; if (r->fl) v.f = in->v.f; else v.i = in->v.i; }
    return add(r, v, isnull, payload, payload_null, err);
}

void attu_reducer_store(const attu_reducer *r, attu_out *out, size_t s) {
    attu_slot sl;
    memset(&sl, 0, sizeof sl);
    int out_fl = attu_type_mclass(out->type.id) == ATTU_MC_FLOAT;
    if (r->iv) {
        char packed[16];
        memcpy(packed, &r->iacc, sizeof packed);
        if (!r->has) sl.null = 1;
        else { sl.v.s = packed; sl.len = 16; }
        store_one(out, s, &sl);
        return;
    }
    if (r->nm) {
        attu_numeric v = r->nacc;
        char packed[16];
        if (!r->has) sl.null = 1;
        else if (out->type.id == ATTU_TYPE_NUMERIC) { attu_numeric_pack(v, packed); sl.v.s = packed; }
        else if (out_fl) sl.v.f = attu_numeric_to_double(v);
        else if (attu_numeric_to_scaled(v, out->type.id == ATTU_TYPE_DECIMAL ? out->type.scale : 0, &sl.v.i)) sl.null = 1;
        store_one(out, s, &sl);
        return;
    }
    switch (r->op) {
    case ATTU_REDUCE_COUNT_STAR: case ATTU_REDUCE_COUNT:
        sl.v.i = r->cnt; break;
    case ATTU_REDUCE_NTH_SMALLEST: case ATTU_REDUCE_NTH_LARGEST:
        if (r->n < r->k) sl.null = 1;
        else if (out_fl) sl.v.f = r->fl ? r->vals[r->k - 1].f : (double)r->vals[r->k - 1].i;
        else sl.v.i = r->vals[r->k - 1].i;
        break;
    case ATTU_REDUCE_NTH_SMALLEST_ARG: case ATTU_REDUCE_NTH_LARGEST_ARG:
        if (r->n < r->k || r->paynull[r->k - 1]) sl.null = 1;
        else sl.v.i = r->pay[r->k - 1];   /* raw bits: double or int alike */
        break;
    case ATTU_REDUCE_AVG_SUM:
        if (!r->has) sl.null = 1;
        else sl.v.f = r->acc.f;
        break;
    case ATTU_REDUCE_STRING_AGG:
        sl.null = !r->has;     /* the code comes from the dictionary built later */
        break;
    case ATTU_REDUCE_REGR:
        if (r->regr == ATTU_REGR_COUNT) sl.v.i = r->cnt;    /* 0 over no pair, never NULL */
        else sl.null = !attu_regr_final(&r->rs, r->regr, &sl.v.f);
        break;
    case ATTU_REDUCE_VAR_M2:
        if (!r->has) sl.null = 1;
        else if (r->fl) sl.v.f = r->sxx;
        else {
            /* M2 = (n * sum(x^2) - sum(x)^2) / n, the numerator exact when it fits */
            __int128 nx, sx2, num;
            if (!__builtin_mul_overflow((__int128)r->cnt, r->isxx, &nx) && !__builtin_mul_overflow(r->isx, r->isx, &sx2) &&
                !__builtin_sub_overflow(nx, sx2, &num))
                sl.v.f = (double)((long double)num / (long double)r->cnt);
            else {
                long double mean = (long double)r->isx / (long double)r->cnt;
                sl.v.f = (double)((long double)r->isxx - mean * (long double)r->isx);
            }
        }
        break;
    default:
        if (!r->has) sl.null = 1;
        else if (out_fl && !r->fl) sl.v.f = (double)r->acc.i;
        else sl.v = (r->fl ? (attu_slot){ .v.f = r->acc.f }.v : (attu_slot){ .v.i = r->acc.i }.v);
        break;
    }
    store_one(out, s, &sl);
}
