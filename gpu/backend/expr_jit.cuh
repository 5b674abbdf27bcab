// expr_jit.cuh: compiled expression kernels (the GPU backend's JIT).
//
// The device interpreter (expr_device.cuh) walks a program held in memory:
// per row it decodes every instruction, tests its operands' NULLs through
// pointers and keeps the registers in shared memory. For the cities query
// that is ~1,000 instructions per pair around ~120 of arithmetic. When a
// call is big enough to pay for it, the backend instead writes the kernel's
// source for that one program (expr_jit_codegen.cu): the same kernel
// bodies (eval: a grid-stride loop; lbs_segreduce: lbs_kernel.cuh's body)
// with a step in which every instruction, register index, column type and
// reduction shape is a constant. The values of the program's literals are
// not: the kernel reads them from the uploaded program, so queries that
// differ only in their literals share one compiled kernel. NVRTC compiles it (expr_jit_nvrtc.cu) with
// the same headers the backend is built from, so the values are the
// interpreter's: dev_exec_instr runs each instruction, --fmad=false keeps
// a * b + c two roundings as in the reference.
//
// NVRTC is loaded with dlopen: a host without it (or ATTU_GPU_JIT=0) gets
// the interpreter, as does every program the generator declines (a NaN or
// infinite constant) or NVRTC rejects. Compiled kernels are cached by their
// source for the life of the process.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "gpu/backend/lbs_kernel.cuh"

namespace attu {
namespace gpu_backend {

// The entry point every generated source defines.
constexpr const char* kJitKernelName = "attu_jit_kernel";
constexpr int kJitEvalThreads = 256;

// Blocks of kJitEvalThreads a multiprocessor for a grid of one wave: what
// the kernel's registers let stay resident (per_sm from jit_kernel), or a
// full multiprocessor's threads where that is unknown. A grid sized for
// full occupancy when the registers allow less runs a second, partial wave
// (eval_reduce's weighted side at 48 registers: 5 of 8 blocks resident,
// 1.6 waves, 1.8 TB/s on the H100).
inline int jit_wave_blocks(int per_sm) { return per_sm > 0 ? per_sm : 2048 / kJitEvalThreads; }

// Calls with fewer rows (eval) or work items (lbs_segreduce) than this run
// the interpreter: a compilation costs ~0.1-0.5 s once per program.
// ATTU_GPU_JIT_MIN_ITEMS overrides (0: compile everything, for tests).
long long jit_min_items();

// Source of an eval kernel: code[0, npre) are constants (run once per
// thread), the rest runs per row; ins[i] is input i's column and outs[o]
// an output column with its register. Only their types and whether they
// have a validity buffer go into the source (a column without one loads no
// NULL flags, and the NULL tests on its values fold away), so the kernel
// serves any columns of that shape. Empty when the program cannot be
// compiled (the interpreter runs it). The kernel's parameters:
// (const dinstr_t* code, const dcol_t* ins, const dres_t* outs, long long n,
// int* fail), code being the program as uploaded (its CONSTs' values are
// read from there).
std::string jit_eval_source(const std::vector<dinstr_t>& code, int npre, int nregs, const std::vector<dcol_t>& ins,
                            const std::vector<dres_t>& outs);

// One reduction of a fused aggregate: its op (COUNT_STAR, COUNT, SUM,
// AVG_SUM, MIN, MAX), whether its value is of the float class, and the
// program register it reads (-1: COUNT(*)).
struct jit_reduce_t {
  int op;
  int fl;
  int reg;
};

// Source of an eval_reduce kernel (the fused aggregate): per row the
// program as in jit_eval_source, input i read at row rows[i][row] when
// through[i] is 1 (int64 rows) or 2 (int32 rows; the kernel's rows
// parameter holds the pointers), and each
// reduction folded into the thread's state; each block then stores its
// partials (column_partials.cuh) for column_reduce_store_kernel. Empty
// when the program cannot be compiled. The kernel's parameters:
// (const dinstr_t* code, const dcol_t* ins, const int64_t* const* rows,
// long long n, colacc_t* part, int* flags), launched with
// kJitEvalThreads threads a block; flags[0] is set when a row fails,
// flags[1] when a float summed is not below kFloatSafe in magnitude.
std::string jit_eval_reduce_source(const std::vector<dinstr_t>& code, int npre, int nregs,
                                   const std::vector<dcol_t>& ins, const std::vector<int>& through,
                                   const std::vector<jit_reduce_t>& red);

// Source of an lbs_segreduce kernel for the program, the columns' shapes
// (types and validity, as for eval) and the reduction shape (groups and
// plain reductions as the host built them). The CONSTs' values are read
// from a.code when the step is made. The kernel's parameter:
// (lbs_kargs_t a), launched with lbs_shared_bytes(a, kLbsThreads, 0) of
// shared memory (its registers are not in shared memory). right_cos_reg
// >= 0: a.right_cos holds that right input's cos(radians(x)) per row, which
// an earth_distance with it as second latitude reads (dev_memo_t).
// right_unit: a.right_unit holds the right rows' unit vectors, which the
// program's chord instruction reads (kDevOpEarthChord).
std::string jit_lbs_source(const std::vector<dinstr_t>& code, int nregs, const std::vector<dcol_t>& left,
                           const std::vector<dcol_t>& right, int filter_reg, const std::vector<lgroup_t>& groups,
                           int ngroup, const std::vector<lplain_spec_t>& plain, int right_cos_reg = -1,
                           bool right_unit = false);

// The compiled kernel of source on the current device, or nullptr (NVRTC
// missing or disabled, or the compilation failed: the reason goes to
// stderr once per source when ATTU_GPU_TRACE is set). Thread-safe.
// With blocks_per_sm: how many blocks of `threads` threads the kernel keeps
// resident on a multiprocessor (its registers decide: a grid of one wave
// is this times the multiprocessors; 0 when the occupancy query failed).
const void* jit_kernel(const std::string& source, int threads = 0, int* blocks_per_sm = nullptr);

// Compiles source to a CUBIN for sm_<arch> without loading it: the tests'
// check that every generated source compiles (no GPU needed). Returns
// false with NVRTC's log in *log.
bool jit_compile_only(const std::string& source, int arch, std::string* log);

// Whether NVRTC could be loaded.
bool jit_available();

// Loads NVRTC and compiles a trivial kernel on a background thread (once
// per process), so that the first program worth compiling does not also
// pay for loading the compiler (~0.5 s). The GPU backend calls it when it
// starts; ATTU_GPU_JIT=0 skips it.
void jit_warm_up();

}  // namespace gpu_backend
}  // namespace attu
