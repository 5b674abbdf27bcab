// sorted_search.cuh: vectorized sorted search (seeds/003): for each needle of
// a sorted needles array, its lower (bounds_lower) or upper (bounds_upper)
// bound in a sorted haystack, in O(A + B) by merging the two arrays.
//
// The merge puts haystack element h before needle n when comp(h, n)
// (lower) or when !comp(n, h) (upper); a needle's answer is the number of
// haystack elements merged before it. Tiles cut the merged sequence into
// pieces of nv; merge_partitions (merge_partition.cuh) finds each tile's
// split with a merge-path search, in two levels for many tiles; each CTA loads its needles and haystack into shared memory, each
// thread merges vt positions serially, answers go through shared memory so
// the stores are coalesced.
#pragma once

#include "gpu/patterns/load_balance.cuh"
#include "gpu/patterns/merge_partition.cuh"

namespace attu {
namespace gpu {

// An odd vt: threads walking vt consecutive shared slots hit distinct banks.
using search_box_t = launch_box_t<arch_cta_t<700, 128, 11>, arch_cta_t<900, 256, 11>>;

namespace detail {

template <bounds_t bounds, typename needles_it, typename haystack_it, typename comp_t>
struct search_pred_t {
  needles_it needles;
  haystack_it haystack;
  comp_t comp;
  // true when haystack[b] goes before needles[a]
  __device__ bool operator()(int a, int b) const {
    return bounds == bounds_lower ? comp(haystack[b], needles[a])
                                  : !comp(needles[a], haystack[b]);
  }
};

template <bounds_t bounds, typename launch_t, typename needles_it,
          typename haystack_it, typename indices_it, typename comp_t>
__global__ __launch_bounds__(launch_t::nt) void sorted_search_kernel(
    needles_it needles, int num_needles, haystack_it haystack, int num_haystack,
    indices_it indices, comp_t comp, const int* __restrict__ part) {
  enum { nt = launch_t::sm_ptx::nt, vt = launch_t::sm_ptx::vt, nv = nt * vt };
  using a_t = value_of_t<needles_it>;
  using b_t = value_of_t<haystack_it>;
  __shared__ union {
    struct {
      a_t a[nv];
      b_t b[nv];
    } keys;
    int out[nv];
  } shared;
  int tid = threadIdx.x, cta = blockIdx.x;
  long long total = (long long)num_needles + num_haystack;
  int diag0 = cta * nv, diag1 = (int)min((long long)diag0 + nv, total);
  int b0 = part[cta], b1 = part[cta + 1];
  int a0 = diag0 - b0, a1 = diag1 - b1;
  int na = a1 - a0, nb = b1 - b0;
  // The tile's needles and haystack as one stream of na + nb <= nv loads,
  // all issued before the first shared store (vt loads in flight a thread).
  {
    a_t ka[vt];
    b_t kb[vt];
#pragma unroll
    for (int i = 0; i < vt; ++i) {
      int j = tid + i * nt;
      if (j < na) ka[i] = needles[a0 + j];
      else if (j < na + nb) kb[i] = haystack[b0 + j - na];
    }
#pragma unroll
    for (int i = 0; i < vt; ++i) {
      int j = tid + i * nt;
      if (j < na) shared.keys.a[j] = ka[i];
      else if (j < na + nb) shared.keys.b[j - na] = kb[i];
    }
  }
  __syncthreads();
  auto before = [&](int a, int b) {  // haystack b goes before needle a
    return bounds == bounds_lower ? comp(shared.keys.b[b], shared.keys.a[a])
                                  : !comp(shared.keys.a[a], shared.keys.b[b]);
  };
  int d = min(tid * vt, na + nb);
  int b = merge_path_b(na, nb, d, before);
  int a = d - b;
  int answer[vt], slot[vt];
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    slot[i] = -1;
    if (b < nb && (a >= na || before(a, b))) {
      ++b;
    } else if (a < na) {
      slot[i] = a;
      answer[i] = b0 + b;
      ++a;
    }
  }
  __syncthreads();  // keys are dead: reuse the space for the answers
#pragma unroll
  for (int i = 0; i < vt; ++i)
    if (slot[i] >= 0) shared.out[slot[i]] = answer[i];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < vt; ++i) {
    int j = tid + i * nt;
    if (j < na) indices[a0 + j] = shared.out[j];
  }
}

}  // namespace detail

// indices[i] = lower/upper bound of needles[i] in haystack; both sorted by
// comp (a strict weak order, comp(x, y) == x < y).
template <bounds_t bounds, typename launch_arg_t = empty_t, typename needles_it,
          typename haystack_it, typename indices_it, typename comp_t>
void sorted_search(needles_it needles, int num_needles, haystack_it haystack,
                   int num_haystack, indices_it indices, comp_t comp,
                   context_t& ctx) {
  using launch_t = launch_of_t<launch_arg_t, search_box_t>;
  if (num_needles <= 0) return;
  if (num_haystack < 0) num_haystack = 0;
  int nv = launch_t::cta_dim(ctx.ptx_version()).nv();
  long long total = (long long)num_needles + num_haystack;
  int num_tiles = (int)div_up(total, (long long)nv);
  mem_t<int> part(num_tiles + 1, ctx);
  detail::search_pred_t<bounds, needles_it, haystack_it, comp_t> pred{needles, haystack, comp};
  merge_partitions(pred, num_needles, num_haystack, nv, num_tiles + 1, part.data(), ctx);
  detail::sorted_search_kernel<bounds, launch_t><<<num_tiles, launch_t::nt, 0, ctx.stream()>>>(
      needles, num_needles, haystack, num_haystack, indices, comp, part.data());
  ATTU_CUDA_CHECK_LAUNCH();
}

}  // namespace gpu
}  // namespace attu
