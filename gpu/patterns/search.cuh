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
