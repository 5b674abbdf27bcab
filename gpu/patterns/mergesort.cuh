// mergesort.cuh: comparison sort of keys or key-value pairs, in place,
// stable, for any strict weak order comp(x, y) meaning x < y.
//
// It is segmented_sort with the whole array as one segment: blocks sort
// tiles with CUB's BlockMergeSort, then merge rounds (merge.cuh) double the
// sorted runs until one remains. For keys with a bit order (integers, floats
// under less_t / greater_t) radix_sort (sort.cuh) is faster; mergesort is for
// every other order (compound keys, collations, user comparators).
#pragma once

#include "gpu/patterns/segmented_sort.cuh"

namespace attu {
namespace gpu {

// Key-value sort.
template <typename key_t, typename val_t, typename comp_t, typename context_t>
void mergesort(key_t* keys, val_t* vals, long long count, comp_t comp, context_t& ctx) {
  segsort_detail::segsort_impl<key_t, val_t, true, false>(keys, vals, count, nullptr, 0, comp,
                                                          ctx);
}

// Key-only sort.
template <typename key_t, typename comp_t, typename context_t>
void mergesort(key_t* keys, long long count, comp_t comp, context_t& ctx) {
  segsort_detail::segsort_impl<key_t, int, false, false>(keys, (int*)nullptr, count, nullptr, 0,
                                                         comp, ctx);
}

}  // namespace gpu
}  // namespace attu
