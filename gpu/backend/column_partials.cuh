// column_partials.cuh: the per-block partials of a whole-column reduction
// (COUNT / SUM / AVG_SUM / MIN / MAX), shared by the backend's column
// reduce kernel (backend_gpu_compute.cu) and the compiled fused aggregate
// (expr_jit_codegen.cu: eval_reduce), which NVRTC builds from this same
// text. Both fold a block's threads in one fixed tree and leave one
// colacc_t per block; column_reduce_store_kernel folds those in block
// order. The shapes are fixed, so a float sum associates the same way on
// every run.
#pragma once

namespace attu {
namespace gpu_backend {

// Reductions one call folds (their state stays in registers).
constexpr int kFastSpecs = 8;

// Float inputs below this magnitude cannot make a float sum (or
// PostgreSQL's sum of squares for avg) overflow before 2^40 rows; bigger
// or non-finite ones send the call to the host reference, which raises
// 22003 exactly where PostgreSQL does (the column reduce, the fused
// aggregate's compiled kernel and the segmented reductions alike).
constexpr double kFloatSafe = 1e100;

// A block's partials of every reduction of the call.
struct colacc_t {
  long long cnt[kFastSpecs];
  __int128 isum[kFastSpecs];
  double fsum[kFastSpecs];
  long long mn[kFastSpecs], mx[kFastSpecs];
};

// The block's tree over nt threads' partials in shared memory (a fixed
// shape); the result in slot 0. Every thread calls it.
template <int nt>
__device__ void fold_partials(long long* scnt, __int128* sisum, double* sfsum, long long* smn, long long* smx) {
  for (int h = nt / 2; h > 0; h >>= 1) {
    if ((int)threadIdx.x < h) {
      scnt[threadIdx.x] += scnt[threadIdx.x + h];
      sisum[threadIdx.x] += sisum[threadIdx.x + h];
      sfsum[threadIdx.x] += sfsum[threadIdx.x + h];
      smn[threadIdx.x] = min(smn[threadIdx.x], smn[threadIdx.x + h]);
      smx[threadIdx.x] = max(smx[threadIdx.x], smx[threadIdx.x + h]);
    }
    __syncthreads();
  }
}

// One reduction's state folded over the block (nt threads, every one
// calls it with its own state; the parts a reduction does not use are
// passed as their identities: 0, LLONG_MAX, LLONG_MIN): thread 0's
// arguments hold the block's totals on return, the others' are left as
// they were.
template <int nt>
__device__ void colacc_block_fold(long long& cnt, __int128& isum, double& fsum, long long& mn, long long& mx) {
  __shared__ long long scnt[nt], smn[nt], smx[nt];
  __shared__ __int128 sisum[nt];
  __shared__ double sfsum[nt];
  scnt[threadIdx.x] = cnt;
  sisum[threadIdx.x] = isum;
  sfsum[threadIdx.x] = fsum;
  smn[threadIdx.x] = mn;
  smx[threadIdx.x] = mx;
  __syncthreads();
  fold_partials<nt>(scnt, sisum, sfsum, smn, smx);
  if (threadIdx.x == 0) {
    cnt = scnt[0];
    isum = sisum[0];
    fsum = sfsum[0];
    mn = smn[0];
    mx = smx[0];
  }
  __syncthreads();  // the arrays are reused by the next call
}

// Reduction k's partial over the block, as colacc_block_fold, stored as
// part[blockIdx.x].
template <int nt>
__device__ void colacc_block_store(colacc_t* part, int k, long long cnt, __int128 isum, double fsum, long long mn,
                                   long long mx) {
  colacc_block_fold<nt>(cnt, isum, fsum, mn, mx);
  if (threadIdx.x == 0) {
    part[blockIdx.x].cnt[k] = cnt;
    part[blockIdx.x].isum[k] = isum;
    part[blockIdx.x].fsum[k] = fsum;
    part[blockIdx.x].mn[k] = mn;
    part[blockIdx.x].mx[k] = mx;
  }
}

}  // namespace gpu_backend
}  // namespace attu
