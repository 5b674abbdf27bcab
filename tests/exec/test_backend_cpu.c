/*
 * test_backend_cpu.c - the CPU backend's primitives (engine/backend.h):
 * sort order with NULLs and directions, stability, top-k, compact, gather
 * with -1, inner_join, segment heads + segreduce, and the fused
 * lbs_segreduce with its LEFT JOIN padding.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "engine/backend.h"
#include "engine/regr_accum.h"
#include "engine/expr_program.h"

static attu_backend *be;
static attu_error err;

static void setup(void) {
    attu_error_clear(&err);
    be = attu_backend_cpu_new(2, &err);
    cr_assert_not_null(be);
}
static void teardown(void) { be->destroy(be); }

static attu_buf *up(const void *p, size_t bytes) {
    attu_buf *b = be->alloc(be, bytes, &err);
    cr_assert_not_null(b);
    cr_assert_eq(be->upload(be, b, 0, p, bytes, &err), 0);
    return b;
}

TestSuite(backend_cpu, .init = setup, .fini = teardown);

Test(backend_cpu, sort_desc_nulls_first_is_stable) {
    int32_t v[6] = { 3, 1, 0, 3, 2, 0 };
    uint8_t ok[6] = { 1, 1, 0, 1, 1, 0 };      /* rows 2 and 5 are NULL */
    attu_buf *d = up(v, sizeof v), *m = up(ok, sizeof ok), *perm = be->alloc(be, 6 * 8, &err);
    attu_sort_key k = { { attu_type_make(ATTU_TYPE_INT32), d, m, NULL }, true, true };
    cr_assert_eq(be->sort(be, &k, 1, 6, perm, &err), 0);
    int64_t *p = perm->ptr;
    int64_t want[6] = { 2, 5, 0, 3, 4, 1 };    /* NULLs first (in input order), then 3,3,2,1 */
    for (int i = 0; i < 6; i++) cr_assert_eq(p[i], want[i], "pos %d: %lld", i, (long long)p[i]);
    /* ASC NULLS LAST (the default) */
    k.desc = false; k.nulls_first = false;
    cr_assert_eq(be->sort(be, &k, 1, 6, perm, &err), 0);
    int64_t want2[6] = { 1, 4, 0, 3, 2, 5 };
    for (int i = 0; i < 6; i++) cr_assert_eq(p[i], want2[i]);
    /* top-2 of the same order */
    attu_buf *tk = be->alloc(be, 2 * 8, &err);
    cr_assert_eq(be->top_k(be, &k, 1, 6, 2, tk, &err), 0);
    cr_assert_eq(((int64_t *)tk->ptr)[0], 1);
    cr_assert_eq(((int64_t *)tk->ptr)[1], 4);
    be->free(be, d); be->free(be, m); be->free(be, perm); be->free(be, tk);
}

Test(backend_cpu, float_keys_put_nan_last) {
    double v[4] = { 1.5, __builtin_nan(""), -2.0, 1e300 };
    attu_buf *d = up(v, sizeof v), *perm = be->alloc(be, 4 * 8, &err);
    attu_sort_key k = { { attu_type_make(ATTU_TYPE_FLOAT64), d, NULL, NULL }, false, false };
    cr_assert_eq(be->sort(be, &k, 1, 4, perm, &err), 0);
    int64_t *p = perm->ptr;
    cr_assert(p[0] == 2 && p[1] == 0 && p[2] == 3 && p[3] == 1);
    be->free(be, d); be->free(be, perm);
}

Test(backend_cpu, compact_skips_false_and_null) {
    uint8_t m[5] = { 1, 0, 1, 1, 0 }, ok[5] = { 1, 1, 0, 1, 1 };
    attu_buf *d = up(m, 5), *v = up(ok, 5), *idx = NULL;
    attu_vec mask = { attu_type_make(ATTU_TYPE_BOOL), d, v, NULL };
    size_t n = 0;
    cr_assert_eq(be->compact(be, &mask, 5, &idx, &n, &err), 0);
    cr_assert_eq(n, 2);
    cr_assert_eq(((int64_t *)idx->ptr)[0], 0);
    cr_assert_eq(((int64_t *)idx->ptr)[1], 3);
    be->free(be, d); be->free(be, v); be->free(be, idx);
}

Test(backend_cpu, gather_minus_one_is_null) {
    int64_t src[3] = { 10, 20, 30 }, ix[3] = { 2, -1, 0 };
    attu_buf *s = up(src, sizeof src), *i = up(ix, sizeof ix), *d = be->alloc(be, 24, &err), *dv = be->alloc(be, 3, &err);
    cr_assert_eq(be->gather(be, d, dv, s, NULL, 8, i, 3, &err), 0);
    int64_t *o = d->ptr;
    uint8_t *ov = dv->ptr;
    cr_assert(o[0] == 30 && o[1] == 0 && o[2] == 10);
    cr_assert(ov[0] == 1 && ov[1] == 0 && ov[2] == 1);
    be->free(be, s); be->free(be, i); be->free(be, d); be->free(be, dv);
}

Test(backend_cpu, inner_join_emits_all_pairs) {
    int64_t a[4] = { 1, 2, 2, 5 }, b[5] = { 2, 2, 3, 5, 5 };
    attu_buf *ab = up(a, sizeof a), *bb = up(b, sizeof b), *ai = NULL, *bi = NULL;
    size_t np = 0;
    cr_assert_eq(be->inner_join(be, ab, 4, bb, 5, false, &ai, &bi, &np, &err), 0);
    cr_assert_eq(np, 6);   /* 2x2 for key 2, 1x2 for key 5 */
    int64_t *x = ai->ptr, *y = bi->ptr;
    for (size_t k = 0; k < np; k++) cr_assert_eq(a[x[k]], b[y[k]]);
    be->free(be, ai); be->free(be, bi);
    cr_assert_eq(be->inner_join(be, ab, 4, bb, 5, true, &ai, &bi, &np, &err), 0);
    cr_assert_eq(np, 7);   /* plus (row 0, -1) */
    cr_assert_eq(((int64_t *)bi->ptr)[0], -1);
    be->free(be, ai); be->free(be, bi); be->free(be, ab); be->free(be, bb);
}

Test(backend_cpu, group_by_with_segment_heads_and_segreduce) {
    int32_t g[6] = { 2, 1, 2, 1, 3, 2 };
    int64_t v[6] = { 10, 1, 20, 2, 7, 30 };
    attu_buf *gb = up(g, sizeof g), *vb = up(v, sizeof v), *perm = be->alloc(be, 48, &err), *heads = NULL;
    attu_vec gk = { attu_type_make(ATTU_TYPE_INT32), gb, NULL, NULL };
    attu_sort_key sk = { gk, false, false };
    cr_assert_eq(be->sort(be, &sk, 1, 6, perm, &err), 0);
    size_t nh = 0;
    cr_assert_eq(be->segment_heads(be, &gk, 1, perm, 6, &heads, &nh, &err), 0);
    cr_assert_eq(nh, 3);
    int64_t off[4];
    memcpy(off, heads->ptr, 3 * 8);
    off[3] = 6;
    attu_buf *ob = up(off, sizeof off);
    attu_reduce_spec sp[2];
    memset(sp, 0, sizeof sp);
    sp[0].op = ATTU_REDUCE_SUM; sp[0].in = (attu_vec){ attu_type_make(ATTU_TYPE_INT64), vb, NULL, NULL };
    sp[0].out_type = attu_type_make(ATTU_TYPE_INT64);
    sp[1].op = ATTU_REDUCE_NTH_SMALLEST; sp[1].k = 2; sp[1].in = sp[0].in; sp[1].out_type = sp[0].out_type;
    attu_buf *o0 = be->alloc(be, 24, &err), *o1 = be->alloc(be, 24, &err), *v1 = be->alloc(be, 3, &err);
    attu_out outs[2] = { { sp[0].out_type, o0, NULL, NULL }, { sp[1].out_type, o1, v1, NULL } };
    cr_assert_eq(be->segreduce(be, ob, 3, perm, 2, sp, outs, &err), 0);
    int64_t *s = o0->ptr, *n2 = o1->ptr;
    uint8_t *n2v = v1->ptr;
    cr_assert(s[0] == 3 && s[1] == 60 && s[2] == 7);
    cr_assert(n2v[0] && n2[0] == 2 && n2v[1] && n2[1] == 20 && !n2v[2]);   /* group 3 has one value */
    be->free(be, gb); be->free(be, vb); be->free(be, perm); be->free(be, heads); be->free(be, ob);
    be->free(be, o0); be->free(be, o1); be->free(be, v1);
}

Test(backend_cpu, sum_overflow_is_an_error) {
    int64_t v[2] = { INT64_MAX, 1 };
    attu_buf *vb = up(v, sizeof v), *o = be->alloc(be, 8, &err);
    attu_reduce_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.op = ATTU_REDUCE_SUM; sp.in = (attu_vec){ attu_type_make(ATTU_TYPE_INT64), vb, NULL, NULL };
    sp.out_type = attu_type_make(ATTU_TYPE_INT64);
    attu_out out = { sp.out_type, o, NULL, NULL };
    cr_assert_neq(be->reduce(be, 2, 1, &sp, &out, &err), 0);
    cr_assert_str_eq(err.sqlstate, "22003");
    be->free(be, vb); be->free(be, o);
}

/* corr / regr_* (REGR: `in` Y, `arg` X, k the final function) count a
 * pair only where both are non-NULL; regr_count is never NULL; BIT_XOR
 * skips NULLs and keeps the input's type. */
Test(backend_cpu, regr_and_bitwise_reductions) {
    double y[5] = { 1, 3, 100, 5, 7 }, x[5] = { 1, 2, 9, 3, 50 };
    uint8_t yv[5] = { 1, 1, 0, 1, 1 }, xv[5] = { 1, 1, 1, 1, 0 };
    int32_t b[5] = { 6, 3, 99, 5, 12 };
    attu_buf *yb = up(y, sizeof y), *xb = up(x, sizeof x), *yvb = up(yv, sizeof yv), *xvb = up(xv, sizeof xv);
    attu_buf *bb = up(b, sizeof b);
    attu_type f8 = attu_type_make(ATTU_TYPE_FLOAT64), i8 = attu_type_make(ATTU_TYPE_INT64), i4 = attu_type_make(ATTU_TYPE_INT32);
    attu_reduce_spec sp[4];
    memset(sp, 0, sizeof sp);
    for (int k = 0; k < 3; k++) {
        sp[k].op = ATTU_REDUCE_REGR;
        sp[k].in = (attu_vec){ f8, yb, yvb, NULL };
        sp[k].arg = (attu_vec){ f8, xb, xvb, NULL };
        sp[k].out_type = f8;
    }
    sp[0].k = ATTU_REGR_SLOPE;
    sp[1].k = ATTU_REGR_COUNT; sp[1].out_type = i8;
    sp[2].k = ATTU_REGR_CORR;
    sp[3].op = ATTU_REDUCE_BIT_XOR; sp[3].in = (attu_vec){ i4, bb, yvb, NULL }; sp[3].out_type = i4;
    attu_buf *o[4], *ov[4];
    attu_out outs[4];
    for (int k = 0; k < 4; k++) {
        o[k] = be->alloc(be, 8, &err);
        ov[k] = be->alloc(be, 1, &err);
        outs[k] = (attu_out){ sp[k].out_type, o[k], ov[k], NULL };
    }
    cr_assert_eq(be->reduce(be, 5, 4, sp, outs, &err), 0);
    cr_assert(*(uint8_t *)ov[0]->ptr && *(double *)o[0]->ptr == 2.0);       /* (1,1) (3,2) (5,3) */
    cr_assert(*(uint8_t *)ov[1]->ptr && *(int64_t *)o[1]->ptr == 3);
    cr_assert(*(uint8_t *)ov[2]->ptr && *(double *)o[2]->ptr == 1.0);
    cr_assert(*(uint8_t *)ov[3]->ptr && *(int32_t *)o[3]->ptr == (6 ^ 3 ^ 5 ^ 12));
    cr_assert_eq(be->reduce(be, 0, 4, sp, outs, &err), 0);                   /* no rows */
    cr_assert(!*(uint8_t *)ov[0]->ptr && !*(uint8_t *)ov[2]->ptr && !*(uint8_t *)ov[3]->ptr);
    cr_assert(*(uint8_t *)ov[1]->ptr && *(int64_t *)o[1]->ptr == 0);
    for (int k = 0; k < 4; k++) { be->free(be, o[k]); be->free(be, ov[k]); }
    be->free(be, yb); be->free(be, xb); be->free(be, yvb); be->free(be, xvb); be->free(be, bb);
}

/* lbs_segreduce: 3 left rows; partners by (seg_base, count); value = l + r;
 * filter keeps value != 11; outer pads the segment with no partner. */
Test(backend_cpu, lbs_segreduce_reduces_without_materializing) {
    attu_type i8 = attu_type_make(ATTU_TYPE_INT64), tys[2] = { i8, i8 };
    attu_expr_program *p = attu_program_new(2, tys);
    int sum = attu_program_reg(p, i8), c11 = attu_program_reg(p, i8), ne = attu_program_reg(p, attu_type_make(ATTU_TYPE_BOOL));
    attu_program_emit(p, attu_instr_make(ATTU_OP_ADD_I, sum, 0, 1));
    attu_instr c = attu_instr_make(ATTU_OP_CONST, c11, -1, -1);
    c.imm_i = 11;
    attu_program_emit(p, c);
    attu_program_emit(p, attu_instr_make(ATTU_OP_NE_I, ne, sum, c11));
    attu_program_add_output(p, sum);
    attu_program_add_output(p, ne);
    int64_t L[3] = { 10, 20, 30 }, R[4] = { 1, 2, 3, 4 };
    int64_t off[4] = { 0, 3, 5, 5 }, base[3] = { 0, 2, 0 }, map[4] = { 3, 2, 0, 1 };
    attu_buf *lb = up(L, sizeof L), *rb = up(R, sizeof R), *ob = up(off, sizeof off), *bb = up(base, sizeof base), *mb = up(map, sizeof map);
    attu_vec lv = { i8, lb, NULL, NULL }, rv = { i8, rb, NULL, NULL };
    attu_reduce_spec sp[2];
    memset(sp, 0, sizeof sp);
    sp[0].op = ATTU_REDUCE_COUNT; sp[0].in_reg = 0; sp[0].arg_reg = -1; sp[0].in.type = i8; sp[0].out_type = i8;
    sp[1].op = ATTU_REDUCE_MIN; sp[1].in_reg = 0; sp[1].arg_reg = -1; sp[1].in.type = i8; sp[1].out_type = i8;
    attu_buf *o0 = be->alloc(be, 24, &err), *o1 = be->alloc(be, 24, &err), *v1 = be->alloc(be, 3, &err);
    attu_out outs[2] = { { i8, o0, NULL, NULL }, { i8, o1, v1, NULL } };
    attu_lbs_segreduce_args a;
    memset(&a, 0, sizeof a);
    a.nseg = 3; a.seg_offsets = ob; a.seg_base = bb; a.right_map = mb;
    a.prog = p; a.nleft = 1; a.left = &lv; a.nright = 1; a.right = &rv;
    a.filter_reg = 1; a.nreduce = 2; a.reduce = sp; a.out = outs; a.outer = true;
    cr_assert_eq(be->lbs_segreduce(be, &a, &err), 0, "%s", err.message);
    int64_t *cnt = o0->ptr, *mn = o1->ptr;
    uint8_t *mv = v1->ptr;
    /* seg 0: partners R[3],R[2],R[0] = 4,3,1 -> 14,13,(11 filtered) */
    cr_assert_eq(cnt[0], 2);
    cr_assert(mv[0] && mn[0] == 13);
    /* seg 1: partners map[2..4) = R[0], R[1] -> 21, 22 */
    cr_assert(cnt[1] == 2 && mn[1] == 21);
    /* seg 2: no partner: one NULL-padded item (count of a NULL is 0) */
    cr_assert(cnt[2] == 0 && !mv[2]);
    attu_program_free(p);
    be->free(be, lb); be->free(be, rb); be->free(be, ob); be->free(be, bb); be->free(be, mb);
    be->free(be, o0); be->free(be, o1); be->free(be, v1);
}

/* The radix sort (backend_cpu_radix.c, from 4096 rows) against the merge
 * sort (ATTU_CPU_MERGE_SORT=1): the same permutation for every key type it
 * takes, NULLs first and last, both directions, ties broken by later keys
 * and by the input order, -0 against 0, NaN, keys whose images span one
 * byte or all eight, the row-number key, on 4 workers. */
static uint64_t mix(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

Test(backend_cpu, radix_sort_equals_the_merge_sort) {
    attu_backend *b4 = attu_backend_cpu_new(4, &err);
    cr_assert_not_null(b4);
    size_t sizes[3] = { 4096, 70001, 300000 };
    for (int si = 0; si < 3; si++) {
        size_t n = sizes[si];
        uint64_t s = n;
        int32_t *i4 = malloc(n * 4), *txt = malloc(n * 4);
        int64_t *i8 = malloc(n * 8), *i8s = malloc(n * 8);
        double *f8 = malloc(n * 8);
        float *f4 = malloc(n * 4);
        uint8_t *bo = malloc(n), *v1 = malloc(n), *v2 = malloc(n);
        for (size_t i = 0; i < n; i++) {
            uint64_t r = mix(&s);
            i4[i] = (int32_t)(r % 7) - 3;                        /* many ties */
            txt[i] = (int32_t)((r >> 8) % 300);
            i8[i] = (int64_t)(mix(&s) >> 1) - (INT64_MAX / 2);   /* all bytes differ */
            i8s[i] = (int64_t)((r >> 3) % (4 * n)) - (int64_t)n;     /* ties among some */
            f8[i] = i % 101 == 7 ? __builtin_nan("") : i % 97 == 3 ? -0.0 : i % 89 == 5 ? 0.0
                                                                          : ((double)(r % 2001) - 1000) / 8;
            f4[i] = (float)((int)((r >> 20) % 51) - 25) * 0.5f;
            bo[i] = (uint8_t)((r >> 30) & 1);
            v1[i] = (r >> 40) % 9 != 0;
            v2[i] = (r >> 44) % 5 != 0;
        }
        attu_buf *bi4 = b4->alloc(b4, n * 4, &err), *btx = b4->alloc(b4, n * 4, &err), *bi8 = b4->alloc(b4, n * 8, &err),
                 *bf8 = b4->alloc(b4, n * 8, &err), *bf4 = b4->alloc(b4, n * 4, &err), *bbo = b4->alloc(b4, n, &err),
                 *bv1 = b4->alloc(b4, n, &err), *bv2 = b4->alloc(b4, n, &err), *bi8s = b4->alloc(b4, n * 8, &err);
        memcpy(bi4->ptr, i4, n * 4); memcpy(btx->ptr, txt, n * 4); memcpy(bi8->ptr, i8, n * 8);
        memcpy(bf8->ptr, f8, n * 8); memcpy(bf4->ptr, f4, n * 4); memcpy(bbo->ptr, bo, n);
        memcpy(bv1->ptr, v1, n); memcpy(bv2->ptr, v2, n); memcpy(bi8s->ptr, i8s, n * 8);
        attu_vec vi4 = { attu_type_make(ATTU_TYPE_INT32), bi4, NULL, NULL };
        attu_vec vi4n = { attu_type_make(ATTU_TYPE_INT32), bi4, bv1, NULL };
        attu_vec vtx = { attu_type_make(ATTU_TYPE_TEXT), btx, bv2, NULL };
        attu_vec vi8 = { attu_type_make(ATTU_TYPE_INT64), bi8, NULL, NULL };
        attu_vec vf8 = { attu_type_make(ATTU_TYPE_FLOAT64), bf8, bv2, NULL };
        attu_vec vf4 = { attu_type_make(ATTU_TYPE_FLOAT32), bf4, NULL, NULL };
        attu_vec vbo = { attu_type_make(ATTU_TYPE_BOOL), bbo, bv1, NULL };
        attu_vec rown = { attu_type_make(ATTU_TYPE_INT64), NULL, NULL, NULL };
        attu_vec vi8s = { attu_type_make(ATTU_TYPE_INT64), bi8s, NULL, NULL };
        attu_vec vf8n = { attu_type_make(ATTU_TYPE_FLOAT64), bf8, NULL, NULL };
        /* key lists: { vec, desc, nulls_first } */
        /* shapes 8-10: a wide first key without NULLs, with few ties, some,
         * and the many of f8 */
        attu_sort_key shapes[11][3] = {
            { { vi4, false, false } },
            { { vi4n, true, true }, { vf8, false, false } },
            { { vf8, true, false }, { vi4, false, false } },
            { { vtx, false, true }, { vbo, true, false }, { vi8, false, false } },
            { { vi8, true, false } },
            { { vf4, false, false }, { vi4n, false, true } },
            { { vbo, false, false }, { vf8, false, true }, { vtx, true, false } },
            { { vi4, true, false }, { rown, true, false } },
            { { vi8, true, false }, { vi4, false, false } },
            { { vi8s, false, false }, { vi4n, true, false }, { vtx, false, true } },
            { { vf8n, true, false }, { vi4, false, false } },
        };
        int nkeys[11] = { 1, 2, 2, 3, 1, 2, 3, 2, 2, 3, 2 };
        for (int sh = 0; sh < 11; sh++) {
            attu_buf *pr = b4->alloc(b4, n * 8, &err), *pm = b4->alloc(b4, n * 8, &err);
            cr_assert_eq(b4->sort(b4, shapes[sh], nkeys[sh], n, pr, &err), 0);
            setenv("ATTU_CPU_MERGE_SORT", "1", 1);
            cr_assert_eq(b4->sort(b4, shapes[sh], nkeys[sh], n, pm, &err), 0);
            unsetenv("ATTU_CPU_MERGE_SORT");
            cr_assert(memcmp(pr->ptr, pm->ptr, n * 8) == 0, "n %zu shape %d: the permutations differ", n, sh);
            /* select_window: windows of the same order at the head, the
             * middle and the tail, as the sort's slices; with a bracket of
             * two samples' margin (z = 0) a miss declines, writing nothing */
            if (n >= 65536) {
                size_t windows[7][2] = { { 0, 1 }, { 0, 100 }, { n / 2, 1 }, { n / 3, 777 }, { n - 1, 1 },
                                         { n - 50, 50 }, { n / 8 - 5, n / 16 } };
                for (int z = 0; z < 2; z++) {
                    if (z) setenv("ATTU_CPU_WINDOW_Z", "0", 1);
                    for (int wi = 0; wi < 7; wi++) {
                        size_t st = windows[wi][0], ct = windows[wi][1];
                        memset(pm->ptr, 0xab, n * 8);
                        bool done = false;
                        cr_assert_eq(b4->select_window(b4, shapes[sh], nkeys[sh], n, st, ct, pm, &done, &err), 0);
                        if (!z && ct <= n / 64) cr_assert(done, "n %zu shape %d window %zu+%zu: declined", n, sh, st, ct);
                        if (done)
                            cr_assert(memcmp((int64_t *)pr->ptr + st, pm->ptr, ct * 8) == 0,
                                      "n %zu shape %d window %zu+%zu z %d: not the sort's rows", n, sh, st, ct, z);
                        else
                            cr_assert_eq(((uint8_t *)pm->ptr)[0], 0xab, "a declined window wrote");
                    }
                    unsetenv("ATTU_CPU_WINDOW_Z");
                }
            }
            b4->free(b4, pr); b4->free(b4, pm);
        }
        attu_buf *bufs[9] = { bi4, btx, bi8, bf8, bf4, bbo, bv1, bv2, bi8s };
        for (int k = 0; k < 9; k++) b4->free(b4, bufs[k]);
        free(i4); free(txt); free(i8); free(i8s); free(f8); free(f4); free(bo); free(v1); free(v2);
    }
    b4->destroy(b4);
}

/* select_window over random inputs and random windows against the sort:
 * sizes about the 65,536 rows where it starts, keys of few and of many
 * values, NULLs first or last, both directions, windows of one row to an
 * eighth, at the ends and in between. */
Test(backend_cpu, select_window_random_windows) {
    attu_backend *b4 = attu_backend_cpu_new(4, &err);
    cr_assert_not_null(b4);
    uint64_t s = 20261126;
    for (int it = 0; it < 24; it++) {
        size_t n = 65536 + (size_t)(mix(&s) % 120000);
        int64_t vals = it % 3 == 0 ? 5 : it % 3 == 1 ? 1000 : (int64_t)n * 8;   /* ties: many, some, few */
        int64_t *a = malloc(n * 8);
        int32_t *c = malloc(n * 4);
        uint8_t *v = malloc(n);
        for (size_t i = 0; i < n; i++) {
            a[i] = (int64_t)(mix(&s) % (uint64_t)vals) - vals / 2;
            c[i] = (int32_t)(mix(&s) % 7);
            v[i] = it % 2 ? mix(&s) % 11 != 0 : 1;   /* NULLs in the odd rounds */
        }
        attu_buf *ab = b4->alloc(b4, n * 8, &err), *cb = b4->alloc(b4, n * 4, &err), *vb = b4->alloc(b4, n, &err);
        attu_buf *all = b4->alloc(b4, n * 8, &err), *win = b4->alloc(b4, n * 8, &err);
        memcpy(ab->ptr, a, n * 8); memcpy(cb->ptr, c, n * 4); memcpy(vb->ptr, v, n);
        attu_sort_key keys[2] = {
            { { attu_type_make(ATTU_TYPE_INT64), ab, it % 2 ? vb : NULL, NULL }, (mix(&s) & 1) != 0, (mix(&s) & 1) != 0 },
            { { attu_type_make(ATTU_TYPE_INT32), cb, NULL, NULL }, (mix(&s) & 1) != 0, false },
        };
        int nk = 1 + (int)(mix(&s) & 1);
        cr_assert_eq(b4->sort(b4, keys, nk, n, all, &err), 0);
        for (int w = 0; w < 6; w++) {
            size_t cnt = 1 + (size_t)(mix(&s) % (w < 3 ? 100 : n / 8));
            size_t start = w == 0 ? 0 : w == 1 ? n - cnt : (size_t)(mix(&s) % (n - cnt + 1));
            bool done = false;
            memset(win->ptr, 0xab, n * 8);
            cr_assert_eq(b4->select_window(b4, keys, nk, n, start, cnt, win, &done, &err), 0);
            if (done)
                cr_assert(memcmp((int64_t *)all->ptr + start, win->ptr, cnt * 8) == 0,
                          "round %d n %zu window %zu+%zu keys %d: not the sort's rows", it, n, start, cnt, nk);
            else
                cr_assert(cnt > n / 64, "round %d n %zu window %zu+%zu: a narrow window declined", it, n, start, cnt);
        }
        b4->free(b4, ab); b4->free(b4, cb); b4->free(b4, vb); b4->free(b4, all); b4->free(b4, win);
        free(a); free(c); free(v);
    }
    b4->destroy(b4);
}
