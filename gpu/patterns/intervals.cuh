// intervals.cuh: interval_expand, interval_gather, interval_scatter and
// interval_move (seeds/003), each one load-balanced pass with the
// per-interval values cached by the tile (detail::lbs_move: the loads of a
// thread are all issued before its stores).
//
// `segments` is the exclusive scan of the interval lengths, `count` their
// sum, num_segments the number of intervals. For interval s and rank r:
//   expand:  output[segments[s] + r]       = input[s]
//   gather:  output[segments[s] + r]       = input[gather[s] + r]
//   scatter: output[scatter[s] + r]        = input[segments[s] + r]
//   move:    output[scatter[s] + r]        = input[gather[s] + r]
#pragma once

#include "gpu/patterns/load_balance.cuh"

namespace attu {
namespace gpu {

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
