// bulk.cuh: bulk_insert and bulk_remove (seeds/003).
//
// bulk_insert: c = b with a[i] inserted before b[a_insert[i]] (a_insert
// sorted ascending, values in [0, source_size]; equal positions keep a's
// order). a[i] lands at c[i + a_insert[i]]; b[j] lands at c[j + u(j)] where
// u(j) = number of insert positions <= j, a sorted search of the counting
// sequence 0..source_size-1 into a_insert.
// bulk_remove: output = input without the elements at `indices` (sorted
// ascending, unique, in [0, count)); a stream compaction over a removal mask.
#pragma once

#include "gpu/patterns/compact.cuh"
#include "gpu/patterns/sorted_search.cuh"

namespace attu {
namespace gpu {

template <typename launch_arg_t = empty_t, typename a_it, typename insert_it,
          typename b_it, typename c_it>
void bulk_insert(a_it a, insert_it a_insert, int insert_size, b_it b,
                 int source_size, c_it c, context_t& ctx) {
  if (insert_size < 0) insert_size = 0;
  if (source_size < 0) source_size = 0;
  transform(
      [=] __device__(int i) { c[i + a_insert[i]] = a[i]; }, insert_size, ctx);
  if (!source_size) return;
  mem_t<int> shift(source_size, ctx);
  sorted_search<bounds_upper, launch_arg_t>(counting_iterator_t<int>{0}, source_size,
                                            a_insert, insert_size, shift.data(),
                                            less_t<int>(), ctx);
  const int* s = shift.data();
  transform([=] __device__(int j) { c[j + s[j]] = b[j]; }, source_size, ctx);
}

template <typename launch_arg_t = empty_t, typename input_it,
          typename indices_it, typename output_it>
void bulk_remove(input_it input, int count, indices_it indices, int num_indices,
                 output_it output, context_t& ctx) {
  if (count <= 0) return;
  mem_t<unsigned char> removed(count, ctx);
  removed.memset(0);
  unsigned char* r = removed.data();
  transform([=] __device__(int i) { r[indices[i]] = 1; }, num_indices, ctx);
  auto compact = transform_compact<launch_arg_t>(count, ctx);
  compact.upsweep([=] __device__(int i) { return !r[i]; });
  compact.downsweep([=] __device__(int dest, int src) { output[dest] = input[src]; });
}

}  // namespace gpu
}  // namespace attu
