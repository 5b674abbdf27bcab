// test_jit_codegen.cu: every kind of instruction the compiled kernels take
// (expr_jit.cuh) goes through the source generator and NVRTC, for sm_90,
// in eval and in lbs_segreduce kernels: the generated text and the embedded
// headers must compile. This needs NVRTC, not a GPU, so it runs in CI; the
// compiled kernels' results are checked on the GPU by gpu_test_backend_jit
// (gpu_test_backend with every eval and lbs_segreduce compiled).
#include "gpu/backend/expr_jit.cuh"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/gpu/test_util.cuh"

using namespace attu::gpu_backend;

namespace {

dinstr_t I(int op, int dst, int a = -1, int b = -1, int c = -1, int d = -1, int type = ATTU_TYPE_INT64) {
  dinstr_t in{};
  in.op = op;
  in.dst = dst;
  in.a = a;
  in.b = b;
  in.c = c;
  in.d = d;
  in.guard = -1;
  in.dst_type = type;
  in.dst_float = type == ATTU_TYPE_FLOAT64 || type == ATTU_TYPE_FLOAT32;
  return in;
}

dinstr_t C(int dst, int64_t i, double f, int type) {
  dinstr_t in = I(ATTU_OP_CONST, dst, -1, -1, -1, -1, type);
  in.imm_i = i;
  in.imm_f = f;
  return in;
}

int failures = 0;

void check(const char* what, const std::string& src) {
  if (src.empty()) {
    printf("FAIL %s: the generator declined\n", what);
    failures++;
    return;
  }
  std::string log;
  if (!jit_compile_only(src, 90, &log)) {
    printf("FAIL %s:\n%s\n--- source ---\n%s\n", what, log.c_str(), src.c_str());
    failures++;
    return;
  }
  printf("ok   %s\n", what);
}

}  // namespace

int main() {
  if (!jit_available()) {
    printf("skipped: NVRTC not found (libnvrtc.so), the interpreter runs every program\n");
    return 77;  // ctest: skipped
  }
  const int F = ATTU_TYPE_FLOAT64, L = ATTU_TYPE_INT64, B = ATTU_TYPE_BOOL;
  // Inputs: r0 int64, r1 int64, r2 float64, r3 float64; then computed.
  std::vector<dinstr_t> ints = {
      C(4, INT64_MIN, 0, L), C(5, 7, 0, L), I(ATTU_OP_ADD_I, 6, 0, 1), I(ATTU_OP_SUB_I, 7, 6, 5),
      I(ATTU_OP_MUL_I, 8, 7, 1), I(ATTU_OP_DIV_I, 9, 8, 5), I(ATTU_OP_MOD_I, 10, 9, 5), I(ATTU_OP_NEG_I, 11, 10),
      I(ATTU_OP_LT_I, 12, 11, 4, -1, -1, B), I(ATTU_OP_NOT, 13, 12, -1, -1, -1, B),
      I(ATTU_OP_COALESCE, 14, 11, 5), I(ATTU_OP_SELECT, 15, 14, 5, 13), I(ATTU_OP_IS_NULL, 16, 15, -1, -1, -1, B),
      I(ATTU_OP_AND, 17, 16, 13, -1, -1, B), I(ATTU_OP_OR, 18, 17, 12, -1, -1, B), I(ATTU_OP_NULLIF_I, 19, 15, 5),
      I(ATTU_OP_CAST_I_F, 20, 19, -1, -1, -1, F)};
  dinstr_t dec = I(ATTU_OP_ADD_D, 21, 0, 1, -1, -1, ATTU_TYPE_DECIMAL);
  dec.dst_prec = 12;
  ints.push_back(dec);
  dinstr_t guarded = I(ATTU_OP_ADD_I, 22, 0, 5);
  guarded.guard = 18;
  ints.push_back(guarded);
  std::vector<dinstr_t> floats = {
      C(4, 0, -0.1, F), C(5, 0, 3.958e3, F), I(ATTU_OP_ADD_F, 6, 2, 4, -1, -1, F), I(ATTU_OP_MUL_F, 7, 6, 5, -1, -1, F),
      I(ATTU_OP_DIV_F, 8, 7, 3, -1, -1, F), I(ATTU_OP_SQRT, 9, 8, -1, -1, -1, F), I(ATTU_OP_MOD_F, 10, 9, 5, -1, -1, F),
      I(ATTU_OP_GE_F, 11, 10, 2, -1, -1, B), I(ATTU_OP_NULLIF_F, 12, 10, 4, -1, -1, F),
      I(ATTU_OP_CAST_F_F, 13, 12, -1, -1, -1, ATTU_TYPE_FLOAT32), I(ATTU_OP_RADIANS, 14, 13, -1, -1, -1, F),
      I(ATTU_OP_SIGN_F, 15, 14, -1, -1, -1, F), I(ATTU_OP_POWER, 16, 15, 5, -1, -1, F),
      I(ATTU_OP_EARTH_DISTANCE, 17, 2, 3, 14, 15, F), I(ATTU_OP_ATAN2, 18, 17, 2, -1, -1, F),
      I(ATTU_OP_EXP, 19, 18, -1, -1, -1, F), I(ATTU_OP_LN, 20, 19, -1, -1, -1, F)};
  // Columns: a non-null pointer stands for a validity buffer (only its
  // presence goes into the source).
  static const uint8_t some[1] = {1};
  auto col = [](int type, bool valid) { return dcol_t{type, nullptr, valid ? some : nullptr}; };
  std::vector<dcol_t> in_types = {col(L, true), col(L, false), col(F, true), col(F, false)};
  check("eval: integer, decimal, logic, casts, guard",
        jit_eval_source(ints, 2, 23, in_types, {dres_t{L, nullptr, const_cast<uint8_t*>(some), 15}, dres_t{B, nullptr, nullptr, 18},
                                                dres_t{ATTU_TYPE_INT32, nullptr, nullptr, 21}}));
  // smallint: int32 slots in and out, the int16 range check on each result
  const int S = ATTU_TYPE_INT16;
  std::vector<dinstr_t> smallints = {I(ATTU_OP_ADD_I, 2, 0, 1, -1, -1, S), I(ATTU_OP_NEG_I, 3, 2, -1, -1, -1, S),
                                     I(ATTU_OP_DIV_I, 4, 3, 1, -1, -1, S), I(ATTU_OP_CAST_I_I, 5, 4, -1, -1, -1, ATTU_TYPE_INT32)};
  check("eval: smallint arithmetic",
        jit_eval_source(smallints, 0, 6, {col(S, true), col(S, false)},
                        {dres_t{S, nullptr, const_cast<uint8_t*>(some), 4}, dres_t{ATTU_TYPE_INT32, nullptr, nullptr, 5}}));
  check("eval: float arithmetic and math functions",
        jit_eval_source(floats, 2, 21, in_types, {dres_t{F, nullptr, nullptr, 20}, dres_t{ATTU_TYPE_FLOAT32, nullptr, nullptr, 13}}));

  // lbs_segreduce: left r0, r1 (float); right r2, r3 (float), r4 (int64 row
  // id), r5 (a TEXT payload's codes). The cities shape: a filter on the row
  // ids, one top-3 list with a text payload; plus plain COUNT and MIN.
  std::vector<dinstr_t> pairs = {I(ATTU_OP_NE_I, 7, 6, 4, -1, -1, B), I(ATTU_OP_EARTH_DISTANCE, 8, 0, 1, 2, 3, F)};
  lgroup_t g{};
  g.largest = 0;
  g.fl = 1;
  g.in_reg = 8;
  g.K = 3;
  g.npay = 1;
  g.pay_reg[0] = 5;
  g.pay_text[0] = 3;
  g.pay_reg[1] = g.pay_text[1] = -1;
  std::vector<lplain_spec_t> plain = {{ATTU_REDUCE_COUNT_STAR, 0, -1}, {ATTU_REDUCE_MIN, 1, 8}};
  check("lbs_segreduce: filter, ranked list with payload, COUNT(*), MIN",
        jit_lbs_source(pairs, 9, {col(F, false), col(F, true), col(L, false)},
                       {col(F, true), col(F, false), col(L, false), col(ATTU_TYPE_TEXT, true)}, 7, {g}, 1, plain));
  // the cities list ranked by the chord (kDevOpEarthChord in place of the
  // distance, the right rows' unit vectors from a table)
  std::vector<dinstr_t> chord = pairs;
  chord[1].op = kDevOpEarthChord;
  lgroup_t gc = g;
  gc.K = 5;
  check("lbs_segreduce: a list ranked by the chord, unit vectors from a table",
        jit_lbs_source(chord, 9, {col(F, false), col(F, true), col(L, false)},
                       {col(F, true), col(F, false), col(L, false), col(ATTU_TYPE_TEXT, true)}, 7, {gc}, 1, {}, -1,
                       true));
  check("lbs_segreduce: no filter, no ranked list", jit_lbs_source(pairs, 9, {col(F, false), col(F, false), col(L, false)},
                                     {col(F, false), col(F, false), col(L, false), col(L, false)}, -1, {}, 0, plain));
  // lbs_segreduce with literals: a distance limit and a row id to skip
  std::vector<dinstr_t> lit = {C(9, 7, 0, L), I(ATTU_OP_NE_I, 10, 4, 9, -1, -1, B), C(11, 0, 250.5, F),
                               I(ATTU_OP_EARTH_DISTANCE, 8, 0, 1, 2, 3, F), I(ATTU_OP_LT_F, 12, 8, 11, -1, -1, B),
                               I(ATTU_OP_AND, 7, 10, 12, -1, -1, B)};
  std::string lbs_lit = jit_lbs_source(lit, 13, {col(F, false), col(F, true), col(L, false)},
                                       {col(F, true), col(F, false), col(L, false), col(ATTU_TYPE_TEXT, true)}, 7, {g}, 1,
                                       plain);
  check("lbs_segreduce: literals in the filter", lbs_lit);
  // Literals are read at run time, not written into the source: programs
  // that differ only in them share one source (one cache entry, one
  // compilation), for eval and for lbs_segreduce.
  std::vector<dinstr_t> ints2 = ints, lit2 = lit;
  for (dinstr_t& in : ints2)
    if (in.op == ATTU_OP_CONST) in.imm_i += 12345;
  lit2[0].imm_i = 99;
  lit2[2].imm_f = 1.0e6;
  lit2[2].imm_null = 1;
  std::vector<dres_t> int_outs = {dres_t{L, nullptr, const_cast<uint8_t*>(some), 15}, dres_t{B, nullptr, nullptr, 18},
                                  dres_t{ATTU_TYPE_INT32, nullptr, nullptr, 21}};
  bool same = jit_eval_source(ints, 2, 23, in_types, int_outs) == jit_eval_source(ints2, 2, 23, in_types, int_outs) &&
              lbs_lit == jit_lbs_source(lit2, 13, {col(F, false), col(F, true), col(L, false)},
                                        {col(F, true), col(F, false), col(L, false), col(ATTU_TYPE_TEXT, true)}, 7, {g},
                                        1, plain);
  printf("%s other literals give the same source\n", same ? "ok  " : "FAIL");
  failures += !same;
  // eval_reduce (the fused aggregate): every reduction kind over integer,
  // float and decimal registers, inputs read through a join's rows or in
  // place, a constant evaluated once; and the benchmark's sum(t1.x + t2.y)
  // with count(*) alone
  std::vector<jit_reduce_t> red = {{ATTU_REDUCE_COUNT_STAR, 0, -1}, {ATTU_REDUCE_COUNT, 0, 15},
                                   {ATTU_REDUCE_SUM, 0, 15},        {ATTU_REDUCE_SUM, 1, 20},
                                   {ATTU_REDUCE_AVG_SUM, 0, 21},    {ATTU_REDUCE_AVG_SUM, 1, 20},
                                   {ATTU_REDUCE_MIN, 0, 15},        {ATTU_REDUCE_MAX, 0, 21}};
  check("eval_reduce: every reduction, inputs through rows and in place",
        jit_eval_reduce_source(ints, 2, 23, in_types, {true, false, true, false}, red));
  std::vector<dinstr_t> join_sum = {I(ATTU_OP_ADD_F, 2, 0, 1, -1, -1, F)};
  check("eval_reduce: sum(t1.x + t2.y), count(*)",
        jit_eval_reduce_source(join_sum, 0, 3, {col(F, false), col(F, false)}, {false, true},
                               {{ATTU_REDUCE_COUNT_STAR, 0, -1}, {ATTU_REDUCE_SUM, 1, 2}}));
  // the split sum's side of t2.y: read through int32 partner rows, with its
  // magnitudes (|y|) and count
  std::vector<dinstr_t> mag = {I(ATTU_OP_ABS_F, 1, 0, -1, -1, -1, F)};
  check("eval_reduce: a side of a split sum, int32 rows, ABS_F",
        jit_eval_reduce_source(mag, 0, 2, {col(F, false)}, {2},
                               {{ATTU_REDUCE_SUM, 1, 0}, {ATTU_REDUCE_COUNT, 1, 0}, {ATTU_REDUCE_SUM, 1, 1}}));
  if (!jit_eval_reduce_source(join_sum, 0, 3, {col(F, false), col(F, false)}, {false, true},
                              std::vector<jit_reduce_t>(9, jit_reduce_t{ATTU_REDUCE_COUNT_STAR, 0, -1}))
           .empty()) {
    printf("FAIL eval_reduce took more reductions than a block's partials hold\n");
    failures++;
  } else {
    printf("ok   eval_reduce declines more than kFastSpecs reductions\n");
  }
  // ... and an infinite (or NaN) literal compiles, being no literal in the source
  std::vector<dinstr_t> inf = {C(4, 0, 1.0 / 0.0, F), I(ATTU_OP_NEG_F, 5, 4, -1, -1, -1, F)};
  check("eval: an infinite constant", jit_eval_source(inf, 1, 6, in_types, {dres_t{F, nullptr, nullptr, 5}}));
  // an immediate the generator cannot spell outside a CONST: declined, the
  // interpreter runs the program
  std::vector<dinstr_t> odd = {I(ATTU_OP_NEG_F, 4, 2, -1, -1, -1, F)};
  odd[0].imm_f = 0.0 / 0.0;
  if (!jit_eval_source(odd, 0, 5, in_types, {dres_t{F, nullptr, nullptr, 4}}).empty()) {
    printf("FAIL a NaN immediate was not declined\n");
    failures++;
  } else {
    printf("ok   a NaN immediate outside a CONST is left to the interpreter\n");
  }
  printf("%s: %d failure(s)\n", failures ? "FAILED" : "passed", failures);
  return failures ? 1 : 0;
}
