// segreduce_warp.cuh: segmented reduction of an array, one warp a segment,
// for segments of hundreds to thousands of items.
//
// The tile kernels of segreduce.cuh cost the same for any geometry, but a
// tile runs its partition search, loads, fold, CTA scan and stores one after
// the other, and at long segments that leaves the memory idle between them
// (about half of the copy bandwidth on an H200). When every segment is of a
// length one warp reads in a few rounds, a warp per segment needs none of
// it: it reads its two offsets, then its items as 16-byte vectors (up to
// vec_rounds of them a lane in flight), folds them, and one shuffle
// reduction later stores the segment's value. Empty segments get init.
//
// The fold visits a segment's items out of order, so only operators whose
// result does not depend on the order take this path (segreduce_warp_ok):
// plus over integers and floats (a float sum is regrouped by any parallel
// reduction; the tile kernels regroup it too), minimum / maximum over
// integers (over floats a NaN makes them order-dependent). A segment much
// longer than the mean would leave its warp reading long after the others:
// segreduce checks the longest segment first (warp_segments_wanted,
// warp_segments.cuh).
#pragma once

#include "gpu/patterns/context.cuh"
#include "gpu/patterns/warp_segments.cuh"
#include "gpu/patterns/operators.cuh"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <type_traits>

namespace attu {
namespace gpu {

template <typename op_t, typename T>
struct segreduce_warp_ok {
  static constexpr bool value = false;
};
template <typename T>
struct segreduce_warp_ok<plus_t<T>, T> {
  static constexpr bool value = std::is_arithmetic<T>::value && (sizeof(T) == 4 || sizeof(T) == 8);
};
template <typename T>
struct segreduce_warp_ok<minimum_t<T>, T> {
  static constexpr bool value = std::is_integral<T>::value && (sizeof(T) == 4 || sizeof(T) == 8);
};
template <typename T>
struct segreduce_warp_ok<maximum_t<T>, T> {
  static constexpr bool value = std::is_integral<T>::value && (sizeof(T) == 4 || sizeof(T) == 8);
};

namespace segreduce_warp_detail {

constexpr int nt = 256;
constexpr int vec_rounds = 8;  // 16-byte loads a lane keeps in flight

template <typename T, typename op_t, typename output_it>
__global__ void __launch_bounds__(nt)
warp_kernel(const T* __restrict__ in, int count, const int* __restrict__ segments, int num_segments,
            output_it output, op_t op, T init) {
  constexpr int per_vec = 16 / sizeof(T);
  const int s = int((blockIdx.x * (long long)nt + threadIdx.x) / 32);
  const int lane = threadIdx.x & 31;
  if (s >= num_segments) return;  // whole warps leave together
  const int a = segments[s];
  const int b = s + 1 < num_segments ? segments[s + 1] : count;
  bool has = false;
  T acc = init;
  auto add = [&](T v) {
    acc = has ? op(acc, v) : v;
    has = true;
  };
  if (b > a) {
    // Items [a, head) one at a time until a 16-byte boundary, whole vectors
    // [head, tail), then [tail, b) one at a time (in is T-aligned).
    const int mis = int((reinterpret_cast<uintptr_t>(in) / sizeof(T)) % per_vec);
    int head = a + (per_vec - (a + mis) % per_vec) % per_vec;
    int tail = b - (b + mis) % per_vec;
    if (head >= tail) head = tail = b;  // no whole vector: all one at a time
    for (int i = a + lane; i < head; i += 32) add(in[i]);
    for (int i = tail + lane; i < b; i += 32) add(in[i]);
    const uint4* vec = reinterpret_cast<const uint4*>(in + head);
    const int nvec = (tail - head) / per_vec;
    for (int j = lane; j < nvec; j += 32 * vec_rounds) {
      uint4 x[vec_rounds];
#pragma unroll
      for (int u = 0; u < vec_rounds; ++u)
        if (j + u * 32 < nvec) x[u] = vec[j + u * 32];
#pragma unroll
      for (int u = 0; u < vec_rounds; ++u)
        if (j + u * 32 < nvec) {
          const T* t = reinterpret_cast<const T*>(&x[u]);
#pragma unroll
          for (int k = 0; k < per_vec; ++k) add(t[k]);
        }
    }
  }
#pragma unroll
  for (int off = 16; off; off >>= 1) {
    T other = __shfl_xor_sync(0xffffffffu, acc, off);
    int other_has = __shfl_xor_sync(0xffffffffu, int(has), off);
    if (other_has) acc = has ? op(acc, other) : other;
    has = has || other_has;
  }
  if (lane == 0) output[s] = has ? acc : init;
}

}  // namespace segreduce_warp_detail

template <typename T, typename op_t, typename output_it>
void segreduce_warp(const T* input, int count, const int* segments, int num_segments, output_it output,
                    op_t op, T init, context_t& ctx) {
  using namespace segreduce_warp_detail;
  if (num_segments <= 0) return;
  const long long threads = (long long)num_segments * 32;
  warp_kernel<T><<<unsigned((threads + nt - 1) / nt), nt, 0, ctx.stream()>>>(input, count, segments,
                                                                              num_segments, output, op, init);
  ATTU_CUDA_CHECK_LAUNCH();
}

}  // namespace gpu
}  // namespace attu
