// intervals.cuh: interval_expand, interval_gather, interval_scatter and
// interval_move (seeds/003), each one load-balanced pass with the
// per-interval values cached by the tile (detail::lbs_move: the loads of a
// thread are all issued before its stores; its default kernel,
// lbs_move_v3_kernel, marks the items that start segments in shared memory
// and each lane finds its item's segment with one ballot;
// ATTU_LBS_MOVE_V3=0 the counted ends and CTA scan instead).
//
// `segments` is the exclusive scan of the interval lengths, `count` their
// sum, num_segments the number of intervals. For interval s and rank r:
//   expand:  output[segments[s] + r]       = input[s]
//   gather:  output[segments[s] + r]       = input[gather[s] + r]
//   scatter: output[scatter[s] + r]        = input[segments[s] + r]
//   move:    output[scatter[s] + r]        = input[gather[s] + r]
//
// Intervals of hundreds to a few thousand items on average
// (warp_segments.cuh decides) are moved a warp an interval instead, when
// the arrays are plain pointers: each warp copies its interval with
// sixteen loads in flight a lane, no partition search or tile staging; an
// interval longer than kWarpChunkLen is copied in chunks by the warps of a
// second kernel.
#pragma once

#include "gpu/patterns/load_balance.cuh"
#include "gpu/patterns/warp_segments.cuh"

#include <type_traits>

namespace attu {
namespace gpu {

namespace detail {

// Copies [lo, hi) of an interval whose items start at in / out, sixteen
// loads in flight a lane, every load before its store. Warp-collective.
// On an H200 (docs/performance.md, session 29) sixteen beat eight by 3-4%
// at 64M items, means 300-3000 (0.162-0.163 against 0.168-0.170 ms at mean
// 1000), and four lost 10-15%.
template <typename T>
__device__ __forceinline__ void interval_warp_copy(const T* __restrict__ in, T* __restrict__ out, int lo,
                                                   int hi) {
  constexpr int rounds = 16;  // loads a lane keeps in flight
  const int lane = threadIdx.x & 31;
  for (int r = lo + lane; r < hi; r += 32 * rounds) {
    T v[rounds];
#pragma unroll
    for (int u = 0; u < rounds; ++u)
      if (r + u * 32 < hi) v[u] = in[r + u * 32];
#pragma unroll
    for (int u = 0; u < rounds; ++u)
      if (r + u * 32 < hi) out[r + u * 32] = v[u];
  }
}

// output[dst(s) + r] = input[src(s) + r] for r in [0, len(s)), a warp an
// interval s; src / dst take (s, segments[s]). An interval longer than
// kWarpChunkLen is listed as chunks for interval_chunk_kernel instead.
template <typename T, typename src_t, typename dst_t>
__global__ void __launch_bounds__(256)
interval_warp_kernel(const T* __restrict__ input, T* __restrict__ output, const int* __restrict__ segments,
                     int num_segments, int count, src_t src, dst_t dst, warp_chunks_t chunks) {
  const int s = int((blockIdx.x * 256ll + threadIdx.x) / 32);
  if (s >= num_segments) return;
  const int a = segments[s];
  const int len = (s + 1 < num_segments ? segments[s + 1] : count) - a;
  if (len <= 0) return;
  if (len > chunks.len) {
    warp_list_chunks(chunks, s, a, a + len);
    return;
  }
  interval_warp_copy(input + src(s, a), output + dst(s, a), 0, len);
}

// Every warp of a fixed grid copies listed chunks in turn.
template <typename T, typename src_t, typename dst_t>
__global__ void __launch_bounds__(256)
interval_chunk_kernel(const T* __restrict__ input, T* __restrict__ output, warp_chunks_t chunks, src_t src,
                      dst_t dst) {
  const int listed = warp_chunks_begin(chunks);
  const int warps = gridDim.x * 8;
  for (int e = int((blockIdx.x * 256ll + threadIdx.x) / 32); e < listed; e += warps) {
    const warp_chunk_t c = chunks.chunks[e];
    const warp_chunk_range_t r = warp_chunk_range(chunks, c, e);
    interval_warp_copy(input + src(c.seg, c.begin), output + dst(c.seg, c.begin), r.lo - c.begin,
                       r.hi - c.begin);
  }
  warp_chunks_end(chunks);
}

// Whether the warp path may serve: plain arrays of one T, int offsets and
// descriptors, no launch box from the caller.
template <typename launch_arg_t, typename input_it, typename output_it, typename segments_it, typename a_it,
          typename b_it>
constexpr bool interval_warp_ok() {
  using T = std::remove_cv_t<std::remove_pointer_t<input_it>>;
  return std::is_same<launch_arg_t, empty_t>::value && std::is_pointer<input_it>::value &&
         std::is_pointer<output_it>::value && std::is_same<std::remove_pointer_t<output_it>, T>::value &&
         std::is_pointer<segments_it>::value &&
         std::is_same<std::remove_cv_t<std::remove_pointer_t<segments_it>>, int>::value &&
         std::is_pointer<a_it>::value && std::is_same<std::remove_cv_t<std::remove_pointer_t<a_it>>, int>::value &&
         std::is_pointer<b_it>::value && std::is_same<std::remove_cv_t<std::remove_pointer_t<b_it>>, int>::value;
}

template <typename T, typename src_t, typename dst_t>
void interval_warp(const T* input, T* output, const int* segments, int num_segments, int count, src_t src,
                   dst_t dst, context_t& ctx) {
  const long long threads = (long long)num_segments * 32;
  const warp_chunks_t chunks = warp_chunks_alloc(count, ctx);
  warp_chunks_launch(
      chunks, ctx,
      [&] {
        interval_warp_kernel<T><<<unsigned((threads + 255) / 256), 256, 0, ctx.stream()>>>(
            input, output, segments, num_segments, count, src, dst, chunks);
      },
      interval_chunk_kernel<T, src_t, dst_t>, 256, input, output, chunks, src, dst);
}

// The interval's own start (src or dst of gather / scatter).
struct interval_own_t {
  __device__ int operator()(int, int a) const { return a; }
};
// A descriptor's entry for the interval.
struct interval_at_t {
  const int* v;
  __device__ int operator()(int s, int) const { return v[s]; }
};

}  // namespace detail

template <typename launch_arg_t = empty_t, typename input_it,
          typename segments_it, typename output_it>
void interval_expand(input_it input, int count, segments_it segments,
                     int num_segments, output_it output, context_t& ctx) {
  using T = detail::value_of_t<input_it>;
  detail::lbs_move<launch_arg_t, T>(
      [] __device__(int, int, int, cuda::std::tuple<T> c) { return cuda::std::get<0>(c); },
      [=] __device__(int index, int, int, cuda::std::tuple<T>, T v) { output[index] = v; },
      count, segments, num_segments, cuda::std::make_tuple(input), ctx);
}

template <typename launch_arg_t = empty_t, typename input_it,
          typename segments_it, typename gather_it, typename output_it>
void interval_gather(input_it input, int count, segments_it segments,
                     int num_segments, gather_it gather, output_it output,
                     context_t& ctx) {
  using T = detail::value_of_t<input_it>;
  using G = detail::value_of_t<gather_it>;
  if constexpr (detail::interval_warp_ok<launch_arg_t, input_it, output_it, segments_it, gather_it, gather_it>()) {
    if (warp_segments_wanted(count, num_segments)) {
      detail::interval_warp<T>(input, output, segments, num_segments, count, detail::interval_at_t{gather},
                               detail::interval_own_t{}, ctx);
      return;
    }
  }
  detail::lbs_move<launch_arg_t, T>(
      [=] __device__(int, int, int rank, cuda::std::tuple<G> c) {
        return (T)input[cuda::std::get<0>(c) + rank];
      },
      [=] __device__(int index, int, int, cuda::std::tuple<G>, T v) { output[index] = v; },
      count, segments, num_segments, cuda::std::make_tuple(gather), ctx);
}

template <typename launch_arg_t = empty_t, typename input_it,
          typename segments_it, typename scatter_it, typename output_it>
void interval_scatter(input_it input, int count, segments_it segments,
                      int num_segments, scatter_it scatter, output_it output,
                      context_t& ctx) {
  using T = detail::value_of_t<input_it>;
  using S = detail::value_of_t<scatter_it>;
  if constexpr (detail::interval_warp_ok<launch_arg_t, input_it, output_it, segments_it, scatter_it, scatter_it>()) {
    if (warp_segments_wanted(count, num_segments)) {
      detail::interval_warp<T>(input, output, segments, num_segments, count, detail::interval_own_t{},
                               detail::interval_at_t{scatter}, ctx);
      return;
    }
  }
  detail::lbs_move<launch_arg_t, T>(
      [=] __device__(int index, int, int, cuda::std::tuple<S>) { return (T)input[index]; },
      [=] __device__(int, int, int rank, cuda::std::tuple<S> c, T v) {
        output[cuda::std::get<0>(c) + rank] = v;
      },
      count, segments, num_segments, cuda::std::make_tuple(scatter), ctx);
}

template <typename launch_arg_t = empty_t, typename input_it,
          typename segments_it, typename scatter_it, typename gather_it,
          typename output_it>
void interval_move(input_it input, int count, segments_it segments,
                   int num_segments, scatter_it scatter, gather_it gather,
                   output_it output, context_t& ctx) {
  using T = detail::value_of_t<input_it>;
  using S = detail::value_of_t<scatter_it>;
  using G = detail::value_of_t<gather_it>;
  if constexpr (detail::interval_warp_ok<launch_arg_t, input_it, output_it, segments_it, scatter_it, gather_it>()) {
    if (warp_segments_wanted(count, num_segments)) {
      detail::interval_warp<T>(input, output, segments, num_segments, count, detail::interval_at_t{gather},
                               detail::interval_at_t{scatter}, ctx);
      return;
    }
  }
  detail::lbs_move<launch_arg_t, T>(
      [=] __device__(int, int, int rank, cuda::std::tuple<S, G> c) {
        return (T)input[cuda::std::get<1>(c) + rank];
      },
      [=] __device__(int, int, int rank, cuda::std::tuple<S, G> c, T v) {
        output[cuda::std::get<0>(c) + rank] = v;
      },
      count, segments, num_segments, cuda::std::make_tuple(scatter, gather), ctx);
}

}  // namespace gpu
}  // namespace attu
