// expr_jit_codegen.cu: the sources of compiled eval, eval_reduce and
// lbs_segreduce kernels (expr_jit.cuh). Each instruction becomes a constant dinstr_t
// handed to dev_exec_instr, the interpreter's own per-instruction code, so
// the compiled kernel cannot drift from the interpreted one; what the
// compiler removes is the decoding, the NULL tests of absent operands and
// the register file in shared memory.
#include "gpu/backend/expr_jit.cuh"

#include "gpu/backend/column_partials.cuh"

#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace attu {
namespace gpu_backend {

long long jit_min_items() {
  const char* e = getenv("ATTU_GPU_JIT_MIN_ITEMS");
  if (e && *e) return atoll(e);
  return 1LL << 20;
}

namespace {

void appendf(std::string& s, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void appendf(std::string& s, const char* fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n >= (int)sizeof buf) {
    std::string big((size_t)n + 1, '\0');
    va_start(ap, fmt);
    vsnprintf(&big[0], big.size(), fmt, ap);
    va_end(ap);
    big.resize((size_t)n);
    s += big;
  } else if (n > 0) {
    s.append(buf, (size_t)n);
  }
}

// A program with a NaN or infinite immediate outside a CONST is left to the
// interpreter (a hex literal cannot spell them; a CONST's value is not in
// the source, see emit_instr).
bool codeable(const std::vector<dinstr_t>& code) {
  for (const dinstr_t& in : code)
    if (in.op != ATTU_OP_CONST && !std::isfinite(in.imm_f)) return false;
  return true;
}

// One instruction as a constant; `memo` names the step's memo or nullptr.
// A CONST's value is not written into the source: `imm` names where the
// kernel reads it at run time (the uploaded program's instruction, or the
// step's copy of it), so that queries differing only in their literals
// share one source, one cache entry and one compilation. Every other field
// stays a literal, which lets the compiler fold the instruction's dispatch.
// INT64_MIN has no literal of its own (its magnitude overflows).
void emit_instr(std::string& s, const dinstr_t& in, const char* memo, const char* on_fail, const std::string& imm_src) {
  char imm[48];
  if (in.op == ATTU_OP_CONST) snprintf(imm, sizeof imm, "0LL");
  else if (in.imm_i == INT64_MIN) snprintf(imm, sizeof imm, "(-9223372036854775807LL - 1)");
  else snprintf(imm, sizeof imm, "%lldLL", (long long)in.imm_i);
  appendf(s, "  { dinstr_t in = {%d, %d, %d, %d, %d, %d, %d, %d, %s, %a, %d, %d, %d};\n", in.op, in.dst, in.a, in.b,
          in.c, in.d, in.guard, in.op == ATTU_OP_CONST ? 0 : in.imm_null, imm, in.op == ATTU_OP_CONST ? 0.0 : in.imm_f,
          in.dst_type, in.dst_prec, in.dst_float);
  if (in.op == ATTU_OP_CONST)
    appendf(s, "    in.imm_null = %s.imm_null; in.imm_i = %s.imm_i; in.imm_f = %s.imm_f;\n", imm_src.c_str(),
            imm_src.c_str(), imm_src.c_str());
  appendf(s, "    if (dev_exec_instr(in, Rp, %s)) %s; }\n", memo, on_fail);
}

// Where instruction k's immediates are read: the eval kernel's program
// parameter, or the lbs step's copy of its constants.
std::string code_at(size_t k) {
  char buf[48];
  snprintf(buf, sizeof buf, "code[%zu]", k);
  return buf;
}
std::string step_const(size_t k) {
  char buf[48];
  snprintf(buf, sizeof buf, "K%zu", k);
  return buf;
}

// The validity argument of a load or store: the column's buffer, or a
// literal nullptr when it has none (then the NULL flag is a constant 0 and
// every test of it folds away).
std::string valid_arg(const void* valid, const char* base, size_t i) {
  if (!valid) return "nullptr";
  char buf[64];
  if (base[0] == 'a') snprintf(buf, sizeof buf, "%s[%zu].valid", base, i);
  else snprintf(buf, sizeof buf, "%s%zu.valid", base, i);
  return buf;
}

// Rows a thread loads ahead: a compiled kernel's loop first loads the
// inputs of this many of its rows (row, row + stride, ...), then runs the
// program on each in turn, so a thread keeps that many loads in flight
// instead of one. The rows stay in the thread's order, so sums add as
// before. Only for programs of one input read directly: t1's side of the
// 100M-row join (x alone) went from 284 to 268 us with four rows ahead
// (H100, Nsight Compute), while t2's (y and its partner counts) went from
// 145 to 164 us (48 -> 62 registers: 5 -> 4 blocks a multiprocessor).
int rows_ahead(size_t nins, bool through) { return nins == 1 && !through ? 4 : 1; }

// The loop over a thread's rows, U at a time: every input of the U rows
// loaded into L[u][i] (through a row map where `through` says so), then
// the body opens for row u (its inputs copied into R): the caller emits the
// program and closes it with close_rows_loop.
void open_rows_loop(std::string& s, const std::vector<dcol_t>& ins, const std::vector<int>* through,
                    const char* nrows) {
  bool any_through = false;
  for (size_t i = 0; through && i < through->size(); ++i) any_through |= (*through)[i] != 0;
  int U = rows_ahead(ins.size(), any_through);
  size_t ni = ins.empty() ? 1 : ins.size();
  appendf(s,
          "  long long stride = (long long)gridDim.x * blockDim.x;\n"
          "  for (long long row0 = (long long)blockIdx.x * blockDim.x + threadIdx.x; row0 < %s; row0 += %d * stride) {\n"
          "    dslot_t L[%d][%zu];\n"
          "#pragma unroll\n"
          "    for (int u = 0; u < %d; ++u) {\n"
          "      long long row = row0 + u * stride;\n"
          "      if (row >= %s) break;\n",
          nrows, U, U, ni, U, nrows);
  for (size_t i = 0; i < ins.size(); ++i) {
    bool th = through && (*through)[i];
    appendf(s, "      dev_load(%d, c%zu.data, %s, %s, &L[u][%zu]);\n", ins[i].type, i,
            valid_arg(ins[i].valid, "c", i).c_str(), th ? ("r" + std::to_string(i) + "[row]").c_str() : "row", i);
  }
  appendf(s,
          "    }\n"
          "#pragma unroll\n"
          "    for (int u = 0; u < %d; ++u) {\n"
          "      long long row = row0 + u * stride;\n"
          "      if (row >= %s) break;\n",
          U, nrows);
  for (size_t i = 0; i < ins.size(); ++i) appendf(s, "      R[%zu] = L[u][%zu];\n", i, i);
}

void close_rows_loop(std::string& s) { s += "    }\n  }\n"; }

}  // namespace

std::string jit_eval_source(const std::vector<dinstr_t>& code, int npre, int nregs, const std::vector<dcol_t>& ins,
                            const std::vector<dres_t>& outs) {
  if (!codeable(code) || nregs < 1) return std::string();
  std::string s;
  s += "#include \"gpu/backend/expr_device.cuh\"\n"
       "using namespace attu::gpu_backend;\n";
  appendf(s,
          "extern \"C\" __global__ void __launch_bounds__(%d)\n"
          "%s(const dinstr_t* __restrict__ code, const dcol_t* __restrict__ ins, const dres_t* __restrict__ outs,\n"
          "    long long n, int* fail) {\n",
          kJitEvalThreads, kJitKernelName);
  appendf(s, "  dslot_t R[%d];\n  dslot_t* Rp = R;\n", nregs);
  appendf(s, "  for (int r = 0; r < %d; ++r) { R[r].v.i = 0; R[r].null = 0; }\n", nregs);
  for (size_t i = 0; i < ins.size(); ++i) appendf(s, "  const dcol_t c%zu = ins[%zu];\n", i, i);
  for (size_t o = 0; o < outs.size(); ++o) appendf(s, "  const dres_t o%zu = outs[%zu];\n", o, o);
  for (int k = 0; k < npre; ++k)
    emit_instr(s, code[(size_t)k], "nullptr", "{ atomicExch(fail, 1); return; }", code_at((size_t)k));
  open_rows_loop(s, ins, nullptr, "n");
  for (size_t k = (size_t)npre; k < code.size(); ++k)
    emit_instr(s, code[k], "nullptr", "{ atomicExch(fail, 1); return; }", code_at(k));
  for (size_t o = 0; o < outs.size(); ++o)
    appendf(s, "      dev_store(%d, o%zu.data, %s, row, R[%d]);\n", outs[o].type, o, valid_arg(outs[o].valid, "o", o).c_str(),
            outs[o].reg);
  close_rows_loop(s);
  s += "}\n";
  return s;
}

std::string jit_eval_reduce_source(const std::vector<dinstr_t>& code, int npre, int nregs,
                                   const std::vector<dcol_t>& ins, const std::vector<int>& through,
                                   const std::vector<jit_reduce_t>& red) {
  if (!codeable(code) || nregs < 1 || red.empty() || red.size() > (size_t)kFastSpecs) return std::string();
  std::string s;
  s += "#include \"gpu/backend/expr_device.cuh\"\n"
       "#include \"gpu/backend/column_partials.cuh\"\n"
       "using namespace attu::gpu_backend;\n";
  appendf(s,
          "extern \"C\" __global__ void __launch_bounds__(%d)\n"
          "%s(const dinstr_t* __restrict__ code, const dcol_t* __restrict__ ins,\n"
          "    const int64_t* const* __restrict__ rows, long long n, colacc_t* __restrict__ part, int* flags) {\n",
          kJitEvalThreads, kJitKernelName);
  appendf(s, "  dslot_t R[%d];\n  dslot_t* Rp = R;\n", nregs);
  appendf(s, "  for (int r = 0; r < %d; ++r) { R[r].v.i = 0; R[r].null = 0; }\n", nregs);
  for (size_t i = 0; i < ins.size(); ++i) {
    appendf(s, "  const dcol_t c%zu = ins[%zu];\n", i, i);
    if (through[i] == 2)
      appendf(s, "  const int* __restrict__ r%zu = reinterpret_cast<const int*>(rows[%zu]);\n", i, i);
    else if (through[i])
      appendf(s, "  const int64_t* __restrict__ r%zu = rows[%zu];\n", i, i);
  }
  // every reduction's state; the ones its kind does not use fold away
  for (size_t k = 0; k < red.size(); ++k)
    appendf(s,
            "  long long cnt%zu = 0; __int128 is%zu = 0; double fs%zu = -0.0;\n"
            "  long long mn%zu = 9223372036854775807LL, mx%zu = -9223372036854775807LL - 1;\n",
            k, k, k, k, k);
  s += "  int bad = 0, risk = 0;\n  long long nrows = n;\n";
  for (int k = 0; k < npre; ++k) emit_instr(s, code[(size_t)k], "nullptr", "{ bad = 1; nrows = 0; }", code_at((size_t)k));
  open_rows_loop(s, ins, &through, "nrows");
  // a failing row ends the thread's loop (the call is declined anyway)
  for (size_t k = (size_t)npre; k < code.size(); ++k) emit_instr(s, code[k], "nullptr", "{ bad = 1; goto done; }", code_at(k));
  for (size_t k = 0; k < red.size(); ++k) {
    const jit_reduce_t& r = red[k];
    if (r.op == ATTU_REDUCE_COUNT_STAR || r.reg < 0) {
      appendf(s, "    ++cnt%zu;\n", k);
      continue;
    }
    appendf(s, "    if (!R[%d].null) {\n      ++cnt%zu;\n", r.reg, k);
    switch (r.op) {
      case ATTU_REDUCE_SUM:
      case ATTU_REDUCE_AVG_SUM:
        if (r.op == ATTU_REDUCE_SUM && !r.fl) {
          appendf(s, "      is%zu += R[%d].v.i;\n", k, r.reg);
        } else if (r.fl) {
          // kFloatSafe (column_partials.cuh): a sum that may overflow goes to the host
          appendf(s, "      double d = R[%d].v.f;\n      if (!(fabs(d) < kFloatSafe)) risk = 1;\n      fs%zu += d;\n", r.reg, k);
        } else {
          appendf(s, "      fs%zu += (double)R[%d].v.i;\n", k, r.reg);
        }
        break;
      case ATTU_REDUCE_MIN: appendf(s, "      mn%zu = min(mn%zu, (long long)R[%d].v.i);\n", k, k, r.reg); break;
      case ATTU_REDUCE_MAX: appendf(s, "      mx%zu = max(mx%zu, (long long)R[%d].v.i);\n", k, k, r.reg); break;
      default: break;  // COUNT: the count alone
    }
    s += "    }\n";
  }
  close_rows_loop(s);
  s += "done:\n"
       "  if (bad) atomicExch(&flags[0], 1);\n"
       "  if (risk) atomicExch(&flags[1], 1);\n";
  for (size_t k = 0; k < red.size(); ++k)
    appendf(s, "  colacc_block_store<%d>(part, %zu, cnt%zu, is%zu, fs%zu, mn%zu, mx%zu);\n", kJitEvalThreads, k, k, k, k,
            k, k);
  s += "}\n";
  return s;
}

std::string jit_lbs_source(const std::vector<dinstr_t>& code, int nregs, const std::vector<dcol_t>& left,
                           const std::vector<dcol_t>& right, int filter_reg, const std::vector<lgroup_t>& groups,
                           int ngroup, const std::vector<lplain_spec_t>& plain, int right_cos_reg,
                           bool right_unit) {
  if (!codeable(code) || nregs < 1 || ngroup > kLbsMaxGroups || (int)plain.size() > kLbsMaxPlain)
    return std::string();
  int nleft = (int)left.size();
  std::string s;
  s += "#include \"gpu/backend/lbs_kernel.cuh\"\n"
       "namespace attu {\nnamespace gpu_backend {\n"
       "struct lbs_jit_step {\n";
  appendf(s, "  dslot_t R[%d];\n  dev_memo_t memo;\n", nregs);
  for (size_t k = 0; k < code.size(); ++k)
    if (code[k].op == ATTU_OP_CONST) appendf(s, "  dinstr_t K%zu;\n", k);
  appendf(s,
          "  __device__ lbs_jit_step(const lbs_kargs_t& a, dslot_t*, int) {\n"
          "    for (int r = 0; r < %d; ++r) { R[r].v.i = 0; R[r].null = 0; }\n",
          nregs);
  if (right_cos_reg >= 0) appendf(s, "    memo.cos_b_reg = %d;\n", right_cos_reg);
  if (right_unit) s += "    memo.ub_set = 1;\n";
  for (size_t k = 0; k < code.size(); ++k)
    if (code[k].op == ATTU_OP_CONST) appendf(s, "    K%zu = a.code[%zu];\n", k, k);
  s += "  }\n";
  s += "  __host__ __device__ static int shared_regs(const lbs_kargs_t&) { return 0; }\n";
  s += "  __device__ void load_left(const lbs_kargs_t& a, long long lrow) {\n";
  for (int j = 0; j < nleft; ++j)
    appendf(s, "    dev_load(%d, a.left[%d].data, %s, lrow, &R[%d]);\n", left[(size_t)j].type, j,
            valid_arg(left[(size_t)j].valid, "a.left", (size_t)j).c_str(), j);
  s += "  }\n";
  s += "  __device__ int item(const lbs_kargs_t& a, long long row) {\n    dslot_t* Rp = R;\n";
  if (right_cos_reg >= 0) s += "    memo.cos_b = a.right_cos[row];\n";
  if (right_unit)
    s += "    memo.ub[0] = a.right_unit[row];\n"
         "    memo.ub[1] = a.right_unit[a.right_unit_rows + row];\n"
         "    memo.ub[2] = a.right_unit[2 * a.right_unit_rows + row];\n";
  for (size_t j = 0; j < right.size(); ++j)
    appendf(s, "    dev_load(%d, a.right[%zu].data, %s, row, &R[%d]);\n", right[j].type, j,
            valid_arg(right[j].valid, "a.right", j).c_str(), nleft + (int)j);
  for (size_t k = 0; k < code.size(); ++k) emit_instr(s, code[k], "&memo", "return 1", step_const(k));
  s += "    return 0;\n  }\n";
  s += "  __device__ int outer_item(const lbs_kargs_t& a) {\n    dslot_t* Rp = R;\n";
  for (size_t j = 0; j < right.size(); ++j)
    appendf(s, "    R[%d].null = 1; R[%d].v.i = 0;\n", nleft + (int)j, nleft + (int)j);
  for (size_t k = 0; k < code.size(); ++k) emit_instr(s, code[k], "nullptr", "return 1", step_const(k));
  s += "    return 0;\n  }\n";
  if (filter_reg < 0)
    s += "  __device__ bool passes(const lbs_kargs_t&) const { return true; }\n";
  else
    appendf(s, "  __device__ bool passes(const lbs_kargs_t&) const { return !R[%d].null && R[%d].v.i; }\n", filter_reg,
            filter_reg);
  s += "  __device__ const dslot_t& reg(int r) const { return R[r]; }\n";
  appendf(s, "  __device__ int nplain(const lbs_kargs_t&) const { return %d; }\n", (int)plain.size());
  s += "  __device__ lplain_spec_t plain(const lbs_kargs_t&, int p) const {\n";
  for (size_t p = 0; p < plain.size(); ++p)
    appendf(s, "    if (p == %zu) return lplain_spec_t{%d, %d, %d};\n", p, plain[p].op, plain[p].fl, plain[p].reg);
  s += "    return lplain_spec_t{0, 0, -1};\n  }\n";
  appendf(s, "  __device__ int ngroup(const lbs_kargs_t&) const { return %d; }\n", ngroup);
  s += "  __device__ lgroup_t group(const lbs_kargs_t&, int gi) const {\n";
  for (int g = 0; g < ngroup; ++g) {
    const lgroup_t& G = groups[(size_t)g];
    appendf(s, "    if (gi == %d) return lgroup_t{%d, %d, %d, %d, %d, {", g, G.largest, G.fl, G.in_reg, G.K, G.npay);
    for (int j = 0; j < kLbsMaxPay; ++j) appendf(s, "%s%d", j ? ", " : "", G.pay_reg[j]);
    s += "}, {";
    for (int j = 0; j < kLbsMaxPay; ++j) appendf(s, "%s%d", j ? ", " : "", G.pay_text[j]);
    s += "}};\n";
  }
  s += "    return lgroup_t{};\n  }\n};\n}  // namespace gpu_backend\n}  // namespace attu\n";
  // At least kLbsJitMinBlocks blocks an SM, which caps a thread at 64
  // registers: the kernel waits on loads more than it computes, and the
  // warps that fit hide that (ncu, the cities query's kernel on an H100: 78
  // registers 444 us, 64 registers 377 us, a few spilled bytes included).
  // ATTU_GPU_LBS_MIN_BLOCKS=B overrides it (0: no bound).
  const char* mb = getenv("ATTU_GPU_LBS_MIN_BLOCKS");
  int min_blocks = mb && *mb ? atoi(mb) : kLbsJitMinBlocks;
  if (min_blocks > 0)
    appendf(s,
            "extern \"C\" __global__ void __launch_bounds__(%d, %d) %s(attu::gpu_backend::lbs_kargs_t a) {\n"
            "  attu::gpu_backend::lbs_segreduce_body<attu::gpu_backend::lbs_jit_step>(a);\n}\n",
            kLbsThreads, min_blocks, kJitKernelName);
  else
    appendf(s,
            "extern \"C\" __global__ void __launch_bounds__(%d) %s(attu::gpu_backend::lbs_kargs_t a) {\n"
            "  attu::gpu_backend::lbs_segreduce_body<attu::gpu_backend::lbs_jit_step>(a);\n}\n",
            kLbsThreads, kJitKernelName);
  return s;
}

}  // namespace gpu_backend
}  // namespace attu
