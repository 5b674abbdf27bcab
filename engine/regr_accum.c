/* regr_accum.c - PostgreSQL's two-variable float8 statistics aggregates
 * (see regr_accum.h). */
#include "engine/regr_accum.h"

#include <math.h>
#include <string.h>

attu_regr_kind attu_regr_kind_named(const char *name) {
    static const struct { const char *name; attu_regr_kind k; } names[] = {
        { "corr", ATTU_REGR_CORR }, { "covar_pop", ATTU_REGR_COVAR_POP }, { "covar_samp", ATTU_REGR_COVAR_SAMP },
        { "regr_avgx", ATTU_REGR_AVGX }, { "regr_avgy", ATTU_REGR_AVGY }, { "regr_count", ATTU_REGR_COUNT },
        { "regr_intercept", ATTU_REGR_INTERCEPT }, { "regr_r2", ATTU_REGR_R2 }, { "regr_slope", ATTU_REGR_SLOPE },
        { "regr_sxx", ATTU_REGR_SXX }, { "regr_sxy", ATTU_REGR_SXY }, { "regr_syy", ATTU_REGR_SYY },
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(names[i].name, name)) return names[i].k;
    return (attu_regr_kind)0;
}

/* The Youngs-Cramer update of the six sums, in PostgreSQL's order of
 * operations (the deviations scaled by 1 / (N * (N - 1)), one
 * multiplication each), so that the rounding is the same. */
int attu_regr_accum(attu_regr_state *s, double y, double x, attu_error *err) {
    double on = s->n, osx = s->sx, osy = s->sy;
    double n = on + 1.0;
    double sx = osx + x, sy = osy + y, sxx = s->sxx, syy = s->syy, sxy = s->sxy;
    if (on > 0.0) {
        double tx = x * n - sx, ty = y * n - sy, scale = 1.0 / (n * on);
        sxx += tx * tx * scale;
        syy += ty * ty * scale;
        sxy += tx * ty * scale;
        if (isinf(sx) || isinf(sxx) || isinf(sy) || isinf(syy) || isinf(sxy)) {
            /* an overflow of finite inputs is an error; an infinite input
             * makes the dependent sums undefined (NaN), its sum infinite */
            if (((isinf(sx) || isinf(sxx)) && !isinf(osx) && !isinf(x)) ||
                ((isinf(sy) || isinf(syy)) && !isinf(osy) && !isinf(y)) ||
                (isinf(sxy) && !isinf(osx) && !isinf(x) && !isinf(osy) && !isinf(y)))
                return attu_error_set(err, ATTU_SQLSTATE_NUMERIC_RANGE, 0, "value out of range: overflow");
            if (isinf(sxx)) sxx = NAN;
            if (isinf(syy)) syy = NAN;
            if (isinf(sxy)) sxy = NAN;
        }
    } else {
        /* the first pair: the deviations are 0, unless it is not finite */
        if (isnan(x) || isinf(x)) sxx = sxy = NAN;
        if (isnan(y) || isinf(y)) syy = sxy = NAN;
    }
    s->n = n; s->sx = sx; s->sy = sy; s->sxx = sxx; s->syy = syy; s->sxy = sxy;
    return 0;
}

/* PostgreSQL's final functions (float8_corr, float8_regr_slope, ...): NULL
 * over no rows; covar_samp NULL over fewer than two; the ratios NULL for a
 * vertical line (Sxx = 0), corr also for a horizontal one (Syy = 0), where
 * regr_r2 is 1. A NaN sum compares unequal to 0 and comes through. */
bool attu_regr_final(const attu_regr_state *s, attu_regr_kind k, double *out) {
    double n = s->n;
    if (n < 1.0) return false;
    switch (k) {
    case ATTU_REGR_CORR:
        if (s->sxx == 0 || s->syy == 0) return false;
        *out = s->sxy / sqrt(s->sxx * s->syy);
        return true;
    case ATTU_REGR_COVAR_POP: *out = s->sxy / n; return true;
    case ATTU_REGR_COVAR_SAMP:
        if (n < 2.0) return false;
        *out = s->sxy / (n - 1.0);
        return true;
    case ATTU_REGR_AVGX: *out = s->sx / n; return true;
    case ATTU_REGR_AVGY: *out = s->sy / n; return true;
    case ATTU_REGR_COUNT: *out = n; return true;
    case ATTU_REGR_INTERCEPT:
        if (s->sxx == 0) return false;
        *out = (s->sy - s->sx * s->sxy / s->sxx) / n;
        return true;
    case ATTU_REGR_R2:
        if (s->sxx == 0) return false;
        if (s->syy == 0) { *out = 1.0; return true; }
        *out = (s->sxy * s->sxy) / (s->sxx * s->syy);
        return true;
    case ATTU_REGR_SLOPE:
        if (s->sxx == 0) return false;
        *out = s->sxy / s->sxx;
        return true;
    case ATTU_REGR_SXX: *out = s->sxx; return true;
    case ATTU_REGR_SXY: *out = s->sxy; return true;
    case ATTU_REGR_SYY: *out = s->syy; return true;
    }
    return false;
}
