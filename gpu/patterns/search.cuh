// search.cuh: the searches every merge-like pattern is partitioned with.
//
// merge_path: for two sequences A and B being merged, the split of the first
// `diag` output elements into (a, diag - a) taken from A and B. The caller
// gives the tie rule as a predicate b_first(a_index, b_index): true when
// B[b_index] goes before A[a_index]. A stable merge (A first on ties) uses
// b_first = comp(B[b], A[a]); the load-balancing search uses
// b_first = (ends[b] <= a).
// binary_search: lower/upper bounds over any indexable sequence.
#pragma once

#include <cuda_runtime.h>

namespace attu {
namespace gpu {

enum bounds_t { bounds_lower, bounds_upper };

// Returns the number of B elements among the first `diag` merged elements.
template <typename b_first_t>
__host__ __device__ int merge_path_b(int a_count, int b_count, int diag,
                                     b_first_t b_first) {
  int begin = diag > a_count ? diag - a_count : 0;
  int end = diag < b_count ? diag : b_count;
  while (begin < end) {
    int mid = (begin + end) >> 1;
    if (b_first(diag - 1 - mid, mid)) begin = mid + 1;
    else end = mid;
  }
  return begin;
}

// The first m in [lo, hi) for which pred(m) is false, pred being true on a
// prefix of the range (hi if none), found by a whole warp: each step the 32
// lanes test 32 evenly spaced points and the range shrinks 32-fold, so a
// search over 2^26 positions is 6 dependent rounds of loads instead of 26
// (the partition kernels are chains of DRAM or L2 latencies). Every lane of
// the warp calls it with the same arguments and gets the answer.
template <typename pred_t>
__device__ inline long long warp_partition_point(long long lo, long long hi, pred_t pred) {
  const int lane = threadIdx.x & 31;
  while (lo < hi) {
    long long span = hi - lo;
    long long p = lo + (span * lane) / 32;
    unsigned mask = __ballot_sync(0xffffffffu, pred(p));
    int k = __popc(mask);  // lanes 0..k-1 hold true (monotone)
    if (k == 0) return lo;
    long long pk = lo + (span * (k - 1)) / 32;
    long long next = k < 32 ? lo + (span * k) / 32 : hi;
    lo = pk + 1;
    hi = next;
  }
  return lo;
}

// Partition kernels take a warp a point when they have few points: the
// 32-fold probes then shorten the one chain of latencies the kernel is (a
// mergesort round at 1M: 242 points; mergesort pairs at 1M 0.150 -> 0.127
// ms, session 12 on an H100), but with many points a thread a point already
// keeps the memory busy and 32 probes each only add traffic (sorted_search
// at 64M 0.41 -> 0.61 ms).
constexpr long long kWarpPartitionMaxPoints = 2048;

// merge_path_b by a whole warp (warp_partition_point).
template <typename b_first_t>
__device__ inline int merge_path_b_warp(int a_count, int b_count, int diag, b_first_t b_first) {
  int begin = diag > a_count ? diag - a_count : 0;
  int end = diag < b_count ? diag : b_count;
  return (int)warp_partition_point(begin, end, [&](long long m) {
    return b_first(diag - 1 - (int)m, (int)m);
  });
}

// Stable-merge path (A's element first on ties): returns a's share of diag.
template <typename a_it, typename b_it, typename comp_t>
__host__ __device__ int merge_path(a_it a, int a_count, b_it b, int b_count,
                                   int diag, comp_t comp) {
  int nb = merge_path_b(a_count, b_count, diag,
                        [&](int ai, int bi) { return comp(b[bi], a[ai]); });
  return diag - nb;
}

// First index in [0, count) whose element is not < key (lower) or > key
// (upper); count if none.
template <bounds_t bounds, typename it_t, typename T, typename comp_t>
__host__ __device__ int binary_search(it_t data, int count, const T& key, comp_t comp) {
  int begin = 0, end = count;
  while (begin < end) {
    int mid = (begin + end) >> 1;
    bool go_right = bounds == bounds_upper ? !comp(key, data[mid]) : comp(data[mid], key);
    if (go_right) begin = mid + 1;
    else end = mid;
  }
  return begin;
}

}  // namespace gpu
}  // namespace attu
