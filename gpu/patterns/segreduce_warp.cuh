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
// Below a mean segment of kFewRoundsMeanBelow items a lane keeps 4
// vectors in flight instead of 8: its registers then let more warps (more
// segments) run at once, and a short segment's warp needs no more.
//
// The fold visits a segment's items out of order, so only operators whose
// result does not depend on the order take this path (segreduce_warp_ok):
// plus over integers and floats (a float sum is regrouped by any parallel
// reduction; the tile kernels regroup it too), minimum / maximum over
// integers (over floats a NaN makes them order-dependent). A segment
// longer than kWarpChunkLen would leave its warp reading long after the
// others: its warp lists its chunks instead (warp_segments.cuh), the chunk
// kernel's warps fold one chunk each, and the warp that folds a segment's
// last chunk combines the chunks' partials in order.
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
// 16-byte loads a lane keeps in flight: the chunks', and the segments' at
// long means (segreduce_warp_rounds_of)
constexpr int vec_rounds = 8;

// The warp's fold of items [a, b) of in, in no fixed order: has is false
// for an empty range. Warp-collective; every lane gets the result.
template <int rounds = vec_rounds, typename T, typename op_t>
__device__ __forceinline__ void warp_fold(const T* __restrict__ in, int a, int b, op_t op, T& acc,
                                          bool& has) {
  constexpr int per_vec = 16 / sizeof(T);
  const int lane = threadIdx.x & 31;
  has = false;
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
    for (int j = lane; j < nvec; j += 32 * rounds) {
      uint4 x[rounds];
#pragma unroll
      for (int u = 0; u < rounds; ++u)
        if (j + u * 32 < nvec) x[u] = vec[j + u * 32];
#pragma unroll
      for (int u = 0; u < rounds; ++u)
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
}

// A warp a segment; a segment longer than kWarpChunkLen is listed as
// chunks for chunk_kernel instead.
template <typename T, int rounds, typename op_t, typename output_it>
__global__ void __launch_bounds__(nt)
warp_kernel(const T* __restrict__ in, int count, const int* __restrict__ segments, int num_segments,
            output_it output, op_t op, T init, warp_chunks_t chunks) {
  const int s = int((blockIdx.x * (long long)nt + threadIdx.x) / 32);
  const int lane = threadIdx.x & 31;
  if (s >= num_segments) return;  // whole warps leave together
  const int a = segments[s];
  const int b = s + 1 < num_segments ? segments[s + 1] : count;
  if (b - a > chunks.len) {
    warp_list_chunks(chunks, s, a, b);
    return;
  }
  T acc = init;
  bool has;
  warp_fold<rounds>(in, a, b, op, acc, has);
  if (lane == 0) output[s] = has ? acc : init;
}

// Every warp of a fixed grid takes listed chunks in turn: it folds its
// chunk into partial[entry], and the warp that finishes a segment's last
// chunk folds the segment's partials in chunk order into output[seg]
// (the fold of a segment does not depend on which warp did which chunk).
template <typename T, typename op_t, typename output_it>
__global__ void __launch_bounds__(nt)
chunk_kernel(const T* __restrict__ in, warp_chunks_t chunks, T* __restrict__ partial_v,
             int* __restrict__ partial_has, output_it output, op_t op, T init) {
  const int listed = warp_chunks_begin(chunks);
  const int lane = threadIdx.x & 31;
  const int warps = gridDim.x * (nt / 32);
  for (int e = int((blockIdx.x * (long long)nt + threadIdx.x) / 32); e < listed; e += warps) {
    const warp_chunk_t c = chunks.chunks[e];
    const warp_chunk_range_t r = warp_chunk_range(chunks, c, e);
    T acc = init;
    bool has;
    warp_fold(in, r.lo, r.hi, op, acc, has);
    // Lane 0 publishes the partial (store, fence, count); the lane that
    // counts the last chunk fences again and the warp's barrier orders
    // the other lanes' reads after it.
    int last = 0;
    if (lane == 0) {
      partial_v[e] = acc;
      partial_has[e] = has;
      __threadfence();
      last = atomicAdd(chunks.done + c.first, 1) == r.n - 1;
      if (last) __threadfence();
    }
    if (!__shfl_sync(0xffffffffu, last, 0)) continue;
    __syncwarp();
    // Lane l folds a run of consecutive partials, then the lanes' folds
    // are combined in lane order.
    const int per = (r.n + 31) / 32;
    bool h = false;
    T v = init;
    for (int i = c.first + lane * per, end = min(c.first + r.n, c.first + (lane + 1) * per); i < end; ++i) {
      if (!*(volatile int*)(partial_has + i)) continue;
      const T p = *(volatile T*)(partial_v + i);
      v = h ? op(v, p) : p;
      h = true;
    }
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
      const T ov = __shfl_down_sync(0xffffffffu, v, off);
      const int oh = __shfl_down_sync(0xffffffffu, int(h), off);
      if ((lane & (2 * off - 1)) == 0 && oh) {
        v = h ? op(v, ov) : ov;
        h = true;
      }
    }
    if (lane == 0) output[c.seg] = h ? v : init;
  }
  warp_chunks_end(chunks);
}

}  // namespace segreduce_warp_detail

// 16-byte loads a lane keeps in flight (warp_kernel's rounds): 4 below a
// mean segment of kFewRoundsMeanBelow items, else 8. On an H200
// (docs/performance.md, session 32; float sums, alternately twice) 4
// against 8 took 0.085-0.086 against 0.104-0.105 ms at mean 300 and 64M
// items, 0.298 against 0.374-0.375 at 256M (and 0.080-0.081 against 0.086
// at mean 600, 0.252 against 0.272-0.273 at 256M); at mean 1000 they tie,
// at mean 3000 8 is 0-2% faster. 2, 3 and 6 lost to 4 below mean 1000.
// With 8 the kernel takes 44 registers (5 CTAs of 256 a multiprocessor),
// with 4 32 (8 CTAs): a short segment fills only a few of a warp's 32
// vectors, so more warps (segments) at once move more bytes.
// ATTU_SEGREDUCE_WARP_ROUNDS=4 or 8 forces either (A/B runs; the tests and
// the bench set it through this reference); 0, the default, picks by the
// mean.
inline int& segreduce_warp_rounds() {
  static int r = (int)warp_segments_detail::env_or("ATTU_SEGREDUCE_WARP_ROUNDS", 0);
  return r;
}
constexpr long long kFewRoundsMeanBelow = 2048;
inline int segreduce_warp_rounds_of(int count, int num_segments) {
  const int forced = segreduce_warp_rounds();
  if (forced == 4 || forced == 8) return forced;
  return (long long)count < kFewRoundsMeanBelow * num_segments ? 4 : 8;
}

template <typename T, typename op_t, typename output_it>
void segreduce_warp(const T* input, int count, const int* segments, int num_segments, output_it output,
                    op_t op, T init, context_t& ctx) {
  using namespace segreduce_warp_detail;
  if (num_segments <= 0) return;
  const warp_chunks_t chunks = warp_chunks_alloc(count, ctx);
  const size_t cap = warp_chunks_capacity(count);
  mem_t<T> partial_v(cap, ctx);
  mem_t<int> partial_has(cap, ctx);
  const long long threads = (long long)num_segments * 32;
  const unsigned blocks = unsigned((threads + nt - 1) / nt);
  const bool four = segreduce_warp_rounds_of(count, num_segments) == 4;
  warp_chunks_launch(
      chunks, ctx,
      [&] {
        if (four)
          warp_kernel<T, 4><<<blocks, nt, 0, ctx.stream()>>>(input, count, segments, num_segments, output, op, init,
                                                             chunks);
        else
          warp_kernel<T, 8><<<blocks, nt, 0, ctx.stream()>>>(input, count, segments, num_segments, output, op, init,
                                                             chunks);
      },
      chunk_kernel<T, op_t, output_it>, nt, input, chunks, partial_v.data(), partial_has.data(), output, op, init);
}

}  // namespace gpu
}  // namespace attu
