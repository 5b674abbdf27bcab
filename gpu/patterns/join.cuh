// join.cuh: inner_join (seeds/001, 003): every pair (i, j) with a[i] == b[j]
// for two arrays sorted by comp, ordered by i then j.
//
// Lower and upper bounds of each a key in b (two sorted searches) give the
// match count of each a row; their scan is a segments descriptor over the
// output pairs, and the load-balancing search expands it: output pair k of
// segment i (rank r) is (i, lower[i] + r), with lower[] cached per tile.
#pragma once

#include "gpu/patterns/scan.cuh"
#include "gpu/patterns/sorted_search.cuh"

namespace attu {
namespace gpu {

template <typename launch_arg_t = empty_t, typename a_it, typename b_it,
          typename comp_t>
mem_t<int2> inner_join(a_it a, int a_count, b_it b, int b_count, comp_t comp,
                       context_t& ctx) {
  if (a_count <= 0 || b_count <= 0) return mem_t<int2>(0, ctx);
  mem_t<int> lower(a_count, ctx), upper(a_count, ctx);
  sorted_search<bounds_lower, launch_arg_t>(a, a_count, b, b_count, lower.data(), comp, ctx);
  sorted_search<bounds_upper, launch_arg_t>(a, a_count, b, b_count, upper.data(), comp, ctx);
  const int* lo = lower.data();
  int* up = upper.data();
  // upper[] becomes the segments descriptor (scan in place).
  mem_t<long long> total(1, ctx);
  transform_scan<scan_type_exc>(
      [=] __device__(int i) { return (long long)(up[i] - lo[i]); }, a_count,
      up, plus_t<long long>(), total.data(), ctx);
  long long n = 0;
  dtoh(&n, total.data(), 1, ctx);
  if (n > 0x7fffffffLL)
    throw std::length_error("inner_join: more than 2^31-1 result pairs");
  mem_t<int2> pairs((size_t)n, ctx);
  int2* out = pairs.data();
  transform_lbs<launch_arg_t>(
      [=] __device__(int index, int seg, int rank, cuda::std::tuple<int> c) {
        out[index] = make_int2(seg, cuda::std::get<0>(c) + rank);
      },
      (int)n, (const int*)up, a_count, cuda::std::make_tuple(lo), ctx);
  return pairs;
}

}  // namespace gpu
}  // namespace attu
