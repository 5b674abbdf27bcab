/*
 * test_expr_program.c - the register interpreter: PostgreSQL's integer
 * overflow and division errors, three-valued logic, guarded (CASE)
 * evaluation, LIKE, and the haversine distance of the cities demo.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "engine/expr_program.h"

static attu_type T(attu_type_id id) { return attu_type_make(id); }

/* Runs a 2-input int program over n rows. */
static int run2(attu_expr_program *p, const int64_t *a, const int64_t *b, const uint8_t *an, size_t n,
                attu_interp **it_out, attu_error *err) {
    attu_interp *it = attu_interp_new(p);
    attu_slot *A = attu_interp_input(it, 0), *B = attu_interp_input(it, 1);
    for (size_t i = 0; i < n; i++) {
        A[i].v.i = a[i]; A[i].null = an ? an[i] : 0;
        B[i].v.i = b[i]; B[i].null = 0;
    }
    *it_out = it;
    return attu_interp_run(it, n, err);
}

Test(expr_program, int32_overflow_is_22003) {
    attu_type tys[2] = { T(ATTU_TYPE_INT32), T(ATTU_TYPE_INT32) };
    attu_expr_program *p = attu_program_new(2, tys);
    int r = attu_program_reg(p, T(ATTU_TYPE_INT32));
    attu_program_emit(p, attu_instr_make(ATTU_OP_ADD_I, r, 0, 1));
    attu_program_add_output(p, r);
    int64_t a[2] = { 1, 2147483647 }, b[2] = { 2, 1 };
    attu_interp *it;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_neq(run2(p, a, b, NULL, 2, &it, &err), 0);
    cr_assert_str_eq(err.sqlstate, "22003");
    cr_assert_str_eq(err.message, "integer out of range");
    attu_interp_free(it);
    attu_program_free(p);
}

Test(expr_program, division_truncates_and_zero_is_22012) {
    attu_type tys[2] = { T(ATTU_TYPE_INT64), T(ATTU_TYPE_INT64) };
    attu_expr_program *p = attu_program_new(2, tys);
    int q = attu_program_reg(p, T(ATTU_TYPE_INT64)), m = attu_program_reg(p, T(ATTU_TYPE_INT64));
    attu_program_emit(p, attu_instr_make(ATTU_OP_DIV_I, q, 0, 1));
    attu_program_emit(p, attu_instr_make(ATTU_OP_MOD_I, m, 0, 1));
    attu_program_add_output(p, q);
    attu_program_add_output(p, m);
    int64_t a[2] = { -7, 7 }, b[2] = { 2, -2 };
    attu_interp *it;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(run2(p, a, b, NULL, 2, &it, &err), 0);
    const attu_slot *Q = attu_interp_output(it, 0), *M = attu_interp_output(it, 1);
    cr_assert(Q[0].v.i == -3 && Q[1].v.i == -3 && M[0].v.i == -1 && M[1].v.i == 1);
    attu_interp_free(it);
    int64_t z[1] = { 0 };
    cr_assert_neq(run2(p, a, z, NULL, 1, &it, &err), 0);
    cr_assert_str_eq(err.sqlstate, "22012");
    attu_interp_free(it);
    attu_program_free(p);
}

Test(expr_program, three_valued_and_or) {
    attu_type tys[2] = { T(ATTU_TYPE_BOOL), T(ATTU_TYPE_BOOL) };
    attu_expr_program *p = attu_program_new(2, tys);
    int a = attu_program_reg(p, T(ATTU_TYPE_BOOL)), o = attu_program_reg(p, T(ATTU_TYPE_BOOL));
    attu_program_emit(p, attu_instr_make(ATTU_OP_AND, a, 0, 1));
    attu_program_emit(p, attu_instr_make(ATTU_OP_OR, o, 0, 1));
    attu_program_add_output(p, a);
    attu_program_add_output(p, o);
    /* NULL and FALSE = FALSE; NULL and TRUE = NULL; NULL or TRUE = TRUE; NULL or FALSE = NULL */
    int64_t x[2] = { 0, 0 }, y[2] = { 0, 1 };
    uint8_t xn[2] = { 1, 1 };
    attu_interp *it;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(run2(p, x, y, xn, 2, &it, &err), 0);
    const attu_slot *A = attu_interp_output(it, 0), *O = attu_interp_output(it, 1);
    cr_assert(!A[0].null && A[0].v.i == 0);
    cr_assert(A[1].null);
    cr_assert(O[0].null);
    cr_assert(!O[1].null && O[1].v.i == 1);
    attu_interp_free(it);
    attu_program_free(p);
}

Test(expr_program, guarded_division_never_divides_by_zero) {
    /* CASE WHEN b <> 0 THEN a / b END */
    attu_type tys[2] = { T(ATTU_TYPE_INT64), T(ATTU_TYPE_INT64) };
    attu_expr_program *p = attu_program_new(2, tys);
    int zero = attu_program_reg(p, T(ATTU_TYPE_INT64)), ne = attu_program_reg(p, T(ATTU_TYPE_BOOL));
    int q = attu_program_reg(p, T(ATTU_TYPE_INT64)), nul = attu_program_reg(p, T(ATTU_TYPE_INT64)), r = attu_program_reg(p, T(ATTU_TYPE_INT64));
    attu_program_emit(p, attu_instr_make(ATTU_OP_CONST, zero, -1, -1));
    attu_program_emit(p, attu_instr_make(ATTU_OP_NE_I, ne, 1, zero));
    attu_instr d = attu_instr_make(ATTU_OP_DIV_I, q, 0, 1);
    d.guard = (int16_t)ne;
    attu_program_emit(p, d);
    attu_instr n = attu_instr_make(ATTU_OP_CONST, nul, -1, -1);
    n.imm_null = true;
    attu_program_emit(p, n);
    attu_instr s = attu_instr_make(ATTU_OP_SELECT, r, q, nul);
    s.c = (int16_t)ne;
    attu_program_emit(p, s);
    attu_program_add_output(p, r);
    int64_t a[3] = { 10, 10, 9 }, b[3] = { 2, 0, 3 };
    attu_interp *it;
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(run2(p, a, b, NULL, 3, &it, &err), 0, "%s", err.message);
    const attu_slot *R = attu_interp_output(it, 0);
    cr_assert(R[0].v.i == 5 && R[1].null && R[2].v.i == 3);
    attu_interp_free(it);
    attu_program_free(p);
}

Test(expr_program, like_patterns) {
    attu_type tys[1] = { T(ATTU_TYPE_TEXT) };
    attu_expr_program *p = attu_program_new(1, tys);
    int pat = attu_program_reg(p, T(ATTU_TYPE_TEXT)), m = attu_program_reg(p, T(ATTU_TYPE_BOOL)), im = attu_program_reg(p, T(ATTU_TYPE_BOOL));
    attu_instr c = attu_instr_make(ATTU_OP_CONST, pat, -1, -1);
    c.imm_s = attu_program_add_string(p, "a%c_", 4);
    attu_program_emit(p, c);
    attu_program_emit(p, attu_instr_make(ATTU_OP_LIKE, m, 0, pat));
    attu_program_emit(p, attu_instr_make(ATTU_OP_ILIKE, im, 0, pat));
    attu_program_add_output(p, m);
    attu_program_add_output(p, im);
    const char *s[4] = { "abcd", "acx", "ABCD", "abc" };
    attu_interp *it = attu_interp_new(p);
    attu_slot *in = attu_interp_input(it, 0);
    for (int i = 0; i < 4; i++) { in[i].v.s = s[i]; in[i].len = (uint32_t)strlen(s[i]); in[i].null = 0; }
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_interp_run(it, 4, &err), 0);
    const attu_slot *M = attu_interp_output(it, 0), *I = attu_interp_output(it, 1);
    cr_assert(M[0].v.i && M[1].v.i && !M[2].v.i && !M[3].v.i);
    cr_assert(I[2].v.i);
    attu_interp_free(it);
    attu_program_free(p);
}

Test(expr_program, earth_distance_matches_the_demo) {
    /* one degree of latitude: 3958.76 * pi / 180 miles */
    cr_assert(fabs(attu_earth_distance(0, 0, 1, 0) - 3958.76 * M_PI / 180) < 1e-9);
    /* Attu Station to Adak, about 435.04 miles (cities demo) */
    double d = attu_earth_distance(52.901, 173.17, 51.88, -176.66);
    cr_assert(d > 420 && d < 450, "%f", d);
    cr_assert_eq(attu_earth_distance(10, 20, 10, 20), 0);
}

/* A batch of earth_distance rows computes cos(lat_a) once per run of equal
 * left latitudes: every row must give the bits attu_earth_distance gives
 * on its own, through runs, changes, -0 against 0 and NaN latitudes. */
Test(expr_program, earth_distance_batch_matches_one_by_one) {
    attu_type f8 = attu_type_make(ATTU_TYPE_FLOAT64);
    attu_type tys[4] = { f8, f8, f8, f8 };
    attu_expr_program *p = attu_program_new(4, tys);
    int d = attu_program_reg(p, f8);
    attu_instr in = attu_instr_make(ATTU_OP_EARTH_DISTANCE, d, 0, 1);
    in.c = 2;
    in.d = 3;
    attu_program_emit(p, in);
    attu_program_add_output(p, d);
    enum { N = 1000 };
    attu_interp *it = attu_interp_new(p);
    attu_slot *la = attu_interp_input(it, 0), *oa = attu_interp_input(it, 1);
    attu_slot *lb = attu_interp_input(it, 2), *ob = attu_interp_input(it, 3);
    for (int i = 0; i < N; i++) {
        /* runs of 7 equal left latitudes, with -0 / 0 and NaN among them */
        int run = i / 7;
        double a = run % 11 == 3 ? (run % 2 ? -0.0 : 0.0) : run % 13 == 5 ? NAN : 20 + (run % 17) * 1.37;
        la[i] = (attu_slot){ .v.f = a };
        oa[i] = (attu_slot){ .v.f = -100 + (i % 5) * 0.5 };
        lb[i] = (attu_slot){ .v.f = 19 + (i * 37 % 101) * 0.29 };
        ob[i] = (attu_slot){ .v.f = -101 + (i * 13 % 29) * 0.7 };
    }
    attu_error err;
    attu_error_clear(&err);
    cr_assert_eq(attu_interp_run(it, N, &err), 0);
    const attu_slot *o = attu_interp_output(it, 0);
    for (int i = 0; i < N; i++) {
        double want = attu_earth_distance(la[i].v.f, oa[i].v.f, lb[i].v.f, ob[i].v.f);
        cr_assert(memcmp(&o[i].v.f, &want, sizeof want) == 0 || (isnan(want) && isnan(o[i].v.f)),
                  "row %d: %.17g against %.17g", i, o[i].v.f, want);
    }
    attu_interp_free(it);
    attu_program_free(p);
}
