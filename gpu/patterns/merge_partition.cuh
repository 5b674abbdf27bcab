// merge_partition.cuh: the merge-path split of every tile of a merge-like
// pattern, in two levels when there are many tiles.
//
// part[t] = merge_path_b(a_count, b_count, min(t * nv, a_count + b_count),
// b_first) for t in [0, num_parts). A thread a point searches the whole of
// both arrays: 26 dependent probes at 64M items, each a DRAM (and, over
// arrays of hundreds of megabytes, a TLB) miss, so the kernel is one long
// chain of latencies: sorted_search's 45K points took 65 us of its 413 at
// 64M on an H100 (Nsight Compute, session 22), at 17% occupancy.
//
// With more points than two_level_min (16384 by default: at 11.6K points,
// sorted_search of 16M into 16M, the second launch cost more than it saved,
// 0.118 -> 0.124 ms; at 45K points, 64M, 0.414 -> 0.400 ms and at 256M
// 1.66 -> 1.53 ms, H100, session 22), a first kernel finds every
// G-th point a warp each (warp_partition_point: 6 rounds of 32 probes), so
// that there are at most kWarpPartitionMaxPoints of them; a second finds
// each point by a thread, searching only between the two coarse points
// around it (a range of at most G tiles, read by the neighbouring threads
// too: its probes hit the caches). The merge path's b is monotone in the
// diagonal, so the coarse answers bound the fine ones.
#pragma once

#include "gpu/patterns/context.cuh"
#include "gpu/patterns/memory.cuh"
#include "gpu/patterns/search.cuh"

#include <algorithm>

namespace attu {
namespace gpu {
namespace merge_partition_detail {

// merge_path_b restricted to b in [lo, hi] (the answer is known to lie there).
template <typename b_first_t>
__device__ inline int merge_path_b_within(int a_count, int b_count, int diag, int lo, int hi, b_first_t b_first) {
  int begin = max(diag > a_count ? diag - a_count : 0, lo);
  int end = min(diag < b_count ? diag : b_count, hi);
  while (begin < end) {
    int mid = (begin + end) >> 1;
    if (b_first(diag - 1 - mid, mid)) begin = mid + 1;
    else end = mid;
  }
  return begin;
}

inline __device__ int diag_of(long long t, long long nv, long long total) {
  return int(t * nv < total ? t * nv : total);
}

// A warp a point: coarse[c] = the split at diagonal c * G * nv (clamped).
template <typename b_first_t>
__global__ void coarse_kernel(b_first_t b_first, int a_count, int b_count, int nv, int G, int num_coarse,
                              int* __restrict__ coarse) {
  const int c = int((blockIdx.x * (long long)blockDim.x + threadIdx.x) / 32);
  if (c >= num_coarse) return;
  const int diag = diag_of((long long)c * G, nv, (long long)a_count + b_count);
  const int b = merge_path_b_warp(a_count, b_count, diag, b_first);
  if ((threadIdx.x & 31) == 0) coarse[c] = b;
}

// A thread a point, between the coarse points around it.
template <typename b_first_t>
__global__ void fine_kernel(b_first_t b_first, int a_count, int b_count, int nv, int G, int num_parts,
                            const int* __restrict__ coarse, int* __restrict__ part) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= num_parts) return;
  const int c = t / G;
  const int diag = diag_of(t, nv, (long long)a_count + b_count);
  if (t % G == 0) {
    part[t] = coarse[c];
    return;
  }
  part[t] = merge_path_b_within(a_count, b_count, diag, coarse[c], coarse[c + 1], b_first);
}

// The one-level form: a warp a point (few points) or a thread a point.
template <typename b_first_t>
__global__ void single_kernel(b_first_t b_first, int a_count, int b_count, int nv, int num_parts,
                              int* __restrict__ part, bool per_warp) {
  const long long gid = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long t = per_warp ? gid / 32 : gid;
  if (t >= num_parts) return;
  const int diag = diag_of(t, nv, (long long)a_count + b_count);
  if (per_warp) {
    const int b = merge_path_b_warp(a_count, b_count, diag, b_first);
    if ((threadIdx.x & 31) == 0) part[t] = b;
  } else {
    part[t] = merge_path_b(a_count, b_count, diag, b_first);
  }
}

}  // namespace merge_partition_detail

// Fills part[0, num_parts) with the merge-path splits of the diagonals t *
// nv (clamped to a_count + b_count). b_first(a, b): true when B[b] goes
// before A[a].
constexpr int kTwoLevelPartitionMinPoints = 16384;

template <typename b_first_t>
void merge_partitions(b_first_t b_first, int a_count, int b_count, int nv, int num_parts, int* part,
                      context_t& ctx, int two_level_min = kTwoLevelPartitionMinPoints) {
  using namespace merge_partition_detail;
  if (num_parts <= 0) return;
  if (num_parts <= kWarpPartitionMaxPoints || num_parts <= two_level_min) {
    const bool per_warp = num_parts <= kWarpPartitionMaxPoints;
    const long long threads = per_warp ? num_parts * 32LL : num_parts;
    single_kernel<<<unsigned((threads + 127) / 128), 128, 0, ctx.stream()>>>(b_first, a_count, b_count, nv,
                                                                             num_parts, part, per_warp);
    ATTU_CUDA_CHECK_LAUNCH();
    return;
  }
  // G tiles between coarse points, so that the coarse points (one more
  // than the groups, the last clamped to the end) fit the warp form.
  const int G = int((num_parts + kWarpPartitionMaxPoints - 2) / (kWarpPartitionMaxPoints - 1));
  const int num_coarse = (num_parts - 1) / G + 2;
  mem_t<int> coarse(num_coarse, ctx);
  coarse_kernel<<<unsigned((num_coarse * 32LL + 127) / 128), 128, 0, ctx.stream()>>>(b_first, a_count, b_count, nv,
                                                                                     G, num_coarse, coarse.data());
  ATTU_CUDA_CHECK_LAUNCH();
  fine_kernel<<<unsigned((num_parts + 127) / 128), 128, 0, ctx.stream()>>>(b_first, a_count, b_count, nv, G,
                                                                           num_parts, coarse.data(), part);
  ATTU_CUDA_CHECK_LAUNCH();
}

}  // namespace gpu
}  // namespace attu
